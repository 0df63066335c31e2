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
  LeaseRequest,
  PruneRequest,
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
  /** When it went done or dead, for retention. */
  settledAt: number;
  lastError: string | null;
}

/** An {@link InboxStore} in memory: for tests; a restart loses what it holds. */
export class MemoryInboxStore implements InboxStore<undefined> {
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
      availableAt: 0,
      leaseToken: null,
      leaseUntil: 0,
      settledAt: 0,
      lastError: null,
    });
    return true;
  }

  async lease({
    limit,
    leaseMs,
    now,
    ordered,
    alone = true,
    retryHorizonMs,
  }: LeaseRequest): Promise<InboxLease[]> {
    // Ordered: each key's events oldest first by created_at (then by arrival), as the SQL adapters order them.
    const rows = ordered
      ? [...this.#rows.values()].sort(
          (a, b) => compareText(a.event.created_at, b.event.created_at) || a.seq - b.seq,
        )
      : [...this.#rows.values()];
    // A time further ahead than this store's worker could have set was set before the clock stepped back.
    const retryDue = (row: Row) =>
      row.availableAt <= now || (retryHorizonMs !== undefined && row.availableAt > now + retryHorizonMs);
    const leaseOver = (row: Row) => row.leaseUntil <= now || row.leaseUntil > now + leaseMs;
    // Keys whose oldest open event is ahead of the rest (ordered mode): only that one may be leased.
    const firstOfKey = (row: Row, seenKeys: Set<string>) => {
      if (!ordered || row.orderingKey === null) return true;
      if (seenKeys.has(row.orderingKey)) return false;
      seenKeys.add(row.orderingKey);
      return true;
    };
    const due = (suspect: boolean) => {
      const found: Row[] = [];
      const seenKeys = new Set<string>();
      for (const row of rows) {
        if (found.length >= (suspect ? 1 : limit)) break;
        if (row.status !== 'pending' || !firstOfKey(row, seenKeys)) continue;
        if (!retryDue(row) || (row.leaseToken !== null) !== suspect) continue;
        if (suspect && !leaseOver(row)) continue;
        found.push(row);
      }
      return found;
    };
    const suspects = alone ? due(true) : [];
    const picked = suspects.length > 0 ? suspects : due(false);
    return picked.map((row) => {
      row.leaseToken = crypto.randomUUID();
      row.leaseUntil = now + leaseMs;
      row.attempts++;
      return {
        eventId: row.eventId,
        event: row.event,
        attempt: row.attempts,
        token: row.leaseToken,
        source: row.source,
        orderingKey: row.orderingKey,
        suspect: suspects.length > 0,
      };
    });
  }

  async renew(lease: InboxLease, leaseMs: number, now: number): Promise<boolean> {
    const row = this.#held(lease);
    if (!row) return false;
    row.leaseUntil = now + leaseMs;
    return true;
  }

  async complete(
    lease: InboxLease,
    work: (tx: undefined) => Promise<void>,
    now: number,
  ): Promise<'done' | 'lost'> {
    await work(undefined);
    const row = this.#held(lease);
    if (!row) return 'lost';
    row.status = 'done';
    row.leaseToken = null;
    row.settledAt = now;
    row.lastError = null;
    return 'done';
  }

  async fail(lease: InboxLease, { error, retryAt, dead, now }: InboxFailure): Promise<void> {
    const row = this.#held(lease);
    if (!row) return;
    row.status = dead ? 'dead' : 'pending';
    row.availableAt = retryAt;
    row.settledAt = now;
    row.leaseToken = null;
    row.lastError = error;
  }

  async replay(eventId: string): Promise<boolean> {
    const row = this.#rows.get(eventId);
    if (!row) return false;
    Object.assign(row, {
      status: 'pending',
      attempts: 0,
      availableAt: 0,
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

  async prune({ doneBefore, deadBefore, limit }: PruneRequest): Promise<number> {
    let deleted = 0;
    for (const row of this.#rows.values()) {
      if (deleted >= limit) break;
      const old =
        (row.status === 'done' && row.settledAt < doneBefore) ||
        (row.status === 'dead' && deadBefore !== null && row.settledAt < deadBefore);
      if (old) {
        this.#rows.delete(row.eventId);
        deleted++;
      }
    }
    return deleted;
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
