// The inbox in this process's memory: for tests and for trying the inbox out. It forgets everything when the
// process ends, so it protects against nothing a restart does.
import type { ShopEvent } from '../../webhooks/events.js';
import type {
  InboxEntry,
  InboxFailure,
  InboxLease,
  InboxRecord,
  InboxSource,
  InboxStatus,
  InboxStore,
  InboxTransaction,
  LeaseRequest,
} from './types.js';

interface Row {
  readonly eventId: string;
  readonly event: ShopEvent;
  readonly source: InboxSource;
  readonly orderingKey: string | null;
  readonly receivedAt: number;
  readonly seq: number;
  status: 'pending' | 'done' | 'dead';
  attempts: number;
  availableAt: number;
  leaseToken: string | null;
  leaseUntil: number;
  lastError: string | null;
}

/** An {@link InboxStore} in memory: for tests; a restart loses what it holds. */
export class MemoryInboxStore implements InboxStore {
  readonly #rows = new Map<string, Row>();
  #seq = 0;

  async setup(): Promise<void> {}

  async add({ event, source, orderingKey, now }: InboxRecord): Promise<boolean> {
    if (this.#rows.has(event.id)) return false;
    this.#rows.set(event.id, {
      eventId: event.id,
      event,
      source,
      orderingKey,
      receivedAt: now,
      seq: ++this.#seq,
      status: 'pending',
      attempts: 0,
      availableAt: now,
      leaseToken: null,
      leaseUntil: 0,
      lastError: null,
    });
    return true;
  }

  async lease({ limit, leaseMs, now, ordered }: LeaseRequest): Promise<InboxLease[]> {
    const leased: InboxLease[] = [];
    // Keys whose oldest open event is ahead of the rest (ordered mode): only that one may be leased.
    const seenKeys = new Set<string>();
    // Ordered: each key's events oldest first by created_at (then by arrival), as the SQL adapters order them.
    const rows = ordered
      ? [...this.#rows.values()].sort(
          (a, b) => compareText(a.event.created_at, b.event.created_at) || a.seq - b.seq,
        )
      : this.#rows.values();
    for (const row of rows) {
      if (leased.length >= limit) break;
      if (row.status !== 'pending') continue;
      if (ordered && row.orderingKey !== null) {
        if (seenKeys.has(row.orderingKey)) continue;
        seenKeys.add(row.orderingKey);
      }
      if (row.availableAt > now || (row.leaseToken !== null && row.leaseUntil > now)) continue;
      row.leaseToken = crypto.randomUUID();
      row.leaseUntil = now + leaseMs;
      row.attempts++;
      leased.push({
        eventId: row.eventId,
        event: row.event,
        attempt: row.attempts,
        token: row.leaseToken,
        source: row.source,
        orderingKey: row.orderingKey,
      });
    }
    return leased;
  }

  async renew(lease: InboxLease, leaseMs: number, now: number): Promise<boolean> {
    const row = this.#held(lease);
    if (!row) return false;
    row.leaseUntil = now + leaseMs;
    return true;
  }

  async complete(
    lease: InboxLease,
    work: (tx: InboxTransaction | undefined) => Promise<void>,
  ): Promise<'done' | 'lost'> {
    await work(undefined);
    const row = this.#held(lease);
    if (!row) return 'lost';
    row.status = 'done';
    row.leaseToken = null;
    row.lastError = null;
    return 'done';
  }

  async fail(lease: InboxLease, { error, retryAt, dead }: InboxFailure): Promise<void> {
    const row = this.#held(lease);
    if (!row) return;
    row.status = dead ? 'dead' : 'pending';
    row.availableAt = retryAt;
    row.leaseToken = null;
    row.lastError = error;
  }

  async replay(eventId: string, now: number): Promise<boolean> {
    const row = this.#rows.get(eventId);
    if (!row) return false;
    Object.assign(row, {
      status: 'pending',
      attempts: 0,
      availableAt: now,
      leaseToken: null,
      lastError: null,
    });
    return true;
  }

  async get(eventId: string, now: number): Promise<InboxEntry | null> {
    const row = this.#rows.get(eventId);
    return row ? entryOf(row, now) : null;
  }

  async list(status: InboxStatus, limit: number, now: number): Promise<InboxEntry[]> {
    const found: InboxEntry[] = [];
    for (const row of this.#rows.values()) {
      if (found.length >= limit) break;
      const entry = entryOf(row, now);
      if (entry.status === status) found.push(entry);
    }
    return found;
  }

  async close(): Promise<void> {}

  #held(lease: InboxLease): Row | undefined {
    const row = this.#rows.get(lease.eventId);
    return row && row.status === 'pending' && row.leaseToken === lease.token ? row : undefined;
  }
}

function compareText(a: unknown, b: unknown): number {
  const left = String(a ?? '');
  const right = String(b ?? '');
  return left < right ? -1 : left > right ? 1 : 0;
}

function entryOf(row: Row, now: number): InboxEntry {
  const processing = row.status === 'pending' && row.leaseToken !== null && row.leaseUntil > now;
  return {
    eventId: row.eventId,
    event: row.event,
    status: processing ? 'processing' : row.status,
    attempts: row.attempts,
    source: row.source,
    orderingKey: row.orderingKey,
    receivedAt: row.receivedAt,
    lastError: row.lastError,
  };
}
