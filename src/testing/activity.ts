import { operations } from '../generated/operations.js';

/** An API request the sandbox answered, as its live log shows it. Never the key itself: its prefix. */
export interface RequestActivity {
  readonly kind: 'request';
  /** Wall-clock time the answer went out (ISO-8601). */
  readonly at: string;
  readonly method: string;
  /** The path without its query (a query may carry an email). */
  readonly path: string;
  /** The HTTP status; 0 when the connection was dropped (an injected fault). */
  readonly status: number;
  readonly durationMs: number;
  /** The operation of the generated table (`range.reservations.create`), null for an unknown path. */
  readonly operationId: string | null;
  /** `sk_test_` and the key's first four characters, never more; null without a Bearer key. */
  readonly keyPrefix: string | null;
  readonly idempotencyKey: string | null;
  /** True when the answer was a stored one (`Idempotent-Replayed: true`). */
  readonly replayed: boolean;
}

/** One attempt to deliver a webhook. */
export interface DeliveryActivity {
  readonly kind: 'delivery';
  readonly at: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly endpointId: string;
  readonly deliveryId: string;
  readonly attempt: number;
  readonly status: 'succeeded' | 'failed';
  readonly httpStatus: number | null;
  readonly error: string | null;
  /** When the next attempt is due on the sandbox clock; null when none follows. */
  readonly nextRetryAt: string | null;
}

/** An event the shop recorded (the feed gains it). */
export interface EventActivity {
  readonly kind: 'event';
  readonly at: string;
  readonly eventId: string;
  readonly eventType: string;
}

/** What the live log carries. */
export type Activity = RequestActivity | DeliveryActivity | EventActivity;

/** An entry with its id: `<run>.<seq>`, the run telling this sandbox's life apart from an earlier one. */
export interface ActivityEntry {
  readonly id: string;
  readonly activity: Activity;
}

/** How many entries the log keeps for a reader that reconnects. */
export const ACTIVITY_HISTORY = 1_000;

/**
 * The live log: a bounded ring of requests, deliveries and events; a reader coming back with its last id
 * gets what came after (everything, for an id of an earlier run).
 */
export class ActivityLog {
  readonly run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296)
    .toString(36)
    .padStart(2, '0')}`;
  #entries: ActivityEntry[] = [];
  #seq = 0;
  readonly #listeners = new Set<(entry: ActivityEntry) => void>();

  add(activity: Activity): void {
    const entry = { id: `${this.run}.${++this.#seq}`, activity };
    this.#entries.push(entry);
    if (this.#entries.length >= 2 * ACTIVITY_HISTORY) this.#entries = this.#entries.slice(-ACTIVITY_HISTORY);
    for (const listener of this.#listeners) {
      try {
        listener(entry);
      } catch {
        // A reader that broke (its stream closed under it) must not fail the request being logged.
        this.#listeners.delete(listener);
      }
    }
  }

  /** Calls `listener` with every new entry until the returned function is called. */
  follow(listener: (entry: ActivityEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The entries after `lastId` and how many were lost to the ring: none without an id (a new reader
   * starts at the present), all held for an id of another run.
   */
  after(lastId: string | null): { entries: ActivityEntry[]; missed: number } {
    const held = this.#entries.slice(-ACTIVITY_HISTORY);
    if (lastId === null || lastId === '') return { entries: [], missed: 0 };
    const [run, seqText] = lastId.split('.');
    const seq = Number(seqText);
    if (run !== this.run || !Number.isSafeInteger(seq)) return { entries: held, missed: 0 };
    const first = held[0] ? Number(held[0].id.split('.')[1]) : this.#seq + 1;
    return {
      entries: held.filter((entry) => Number(entry.id.split('.')[1]) > seq),
      missed: Math.max(0, first - seq - 1),
    };
  }
}

/** `sk_test_9f3a…`: enough to tell keys apart, far too little to use one. */
export function keyPrefix(authorization: string | null): string | null {
  const match = /^Bearer\s+(sk_(?:test|live)_)?(\S*)/i.exec(authorization ?? '');
  if (!match) return null;
  return `${match[1] ?? ''}${(match[2] ?? '').slice(0, 4)}…`;
}

let compiled: { method: string; segments: string[]; id: string; params: number }[] | undefined;

/** The operation id of a method and path, from the generated table; null when no operation matches. */
export function operationOf(method: string, path: string): string | null {
  compiled ??= Object.values(operations)
    .map((operation) => {
      const segments = operation.path.split('/');
      const params = segments.filter((part) => part.startsWith('{')).length;
      return { method: operation.method, segments, id: operation.id, params };
    })
    // A literal segment wins over a parameter (`/v1/inventory/adjust` before `/v1/inventory/{id}`).
    .sort((a, b) => a.params - b.params);
  const actual = path.split('/');
  const found = compiled.find(
    (operation) =>
      operation.method === method &&
      operation.segments.length === actual.length &&
      operation.segments.every((part, index) => part.startsWith('{') || part === actual[index]),
  );
  return found?.id ?? null;
}
