// The options and results of the Inbox and its worker (inbox.ts), apart so the worker's code reads alone.
import type { ShopEvent } from '../../webhooks/events.js';

/**
 * An event as an ordering key function sees it: any event, with `data.object.id` readable whatever its type
 * (undefined where the object has none: a ping, an `inventory.changed`).
 */
export type InboxKeyedEvent = ShopEvent & { data: { object: { id?: string | number } } };

/** How long the inbox keeps settled events. */
export interface InboxRetention {
  /**
   * How long a done event is kept (its id makes a later copy a duplicate), in ms after it was done. Keep it
   * past the feed's 30 days, or a catch-up reading an old event runs it again. @default 2_678_400_000 (31 days)
   */
  doneMs?: number;
  /** How long a dead letter is kept after it went dead, in ms. @default kept until replayed */
  deadMs?: number;
}

/** Options of {@link Inbox}. */
export interface InboxOptions {
  /**
   * Runs at most one event per object at a time, oldest first: `true` keys each event by its object's kind
   * and id (`range_reservation:5001`; an `inventory.changed` by its product and location), or give a key
   * function (`(event) => event.data.object.id`; null or undefined runs the event unordered). A failing
   * event then holds back the later ones of its key until it succeeds or goes to the dead letters.
   * @default no ordering
   */
  orderingKey?: true | ((event: InboxKeyedEvent) => string | number | null | undefined);
  /** Runs of one event before it goes to the dead letters (a run whose process died counts). @default 10 */
  maxAttempts?: number;
  /** Wait before the first retry, in ms; doubled per attempt, with jitter. @default 1000 */
  retryBaseMs?: number;
  /** Longest wait between retries, in ms. @default 3_600_000 (an hour) */
  retryMaxMs?: number;
  /** How long done events and dead letters are kept; workers prune in small batches. */
  retention?: InboxRetention;
  /**
   * Values cut out of a stored `lastError` (`whsec_...` secrets and `Bearer ...` tokens are always cut).
   * @default the SHOP_API_KEY and SHOP_WEBHOOK_SECRET environment values
   */
  secrets?: readonly string[];
  /**
   * The clock in ms since the epoch, for tests. @default the wall clock read once, then advanced by a
   * monotonic clock: a wall-clock step while the process runs moves no lease or retry.
   */
  now?: () => number;
}

/** Options of {@link Inbox.work}. */
export interface InboxWorkerOptions {
  /** Events processed at once by this worker. @default 4 */
  concurrency?: number;
  /**
   * Lease length in seconds: a worker that dies holds its events this long at most. The running handler
   * renews it every third of it (not needed with the SQL adapters, whose transaction locks the event).
   * @default 30
   */
  leaseSeconds?: number;
  /**
   * Longest a handler may run, in ms: at it, its `signal` aborts, its transaction rolls back (SQL adapters)
   * and the run counts as a failed attempt ("The handler timed out after N ms"), retried as usual. A
   * handler that ignores the signal goes on in the background, but its `tx` is closed.
   * @default a third of the lease (10_000 with the default lease)
   */
  handlerTimeoutMs?: number;
  /**
   * Longest `stop()` waits for the events in hand, in ms; then their handlers are cut off as at the
   * deadline and `stop()` resolves. @default handlerTimeoutMs + 5000
   */
  stopTimeoutMs?: number;
  /** Wait between polls while the inbox has nothing due, in ms. @default 500 */
  pollMs?: number;
  /** Told about every failed run and store failure (the worker goes on). @default console.error */
  onError?: (error: unknown, entry: { eventId: string; attempt: number } | null) => void;
  /** A name for this worker (the Redis adapter's consumer). @default a random one */
  name?: string;
}

/** A running worker; see {@link Inbox.work}. */
export interface InboxWorker {
  /** Stops leasing; resolves once the events in hand are finished. */
  stop(): Promise<void>;
  /** Resolves once nothing is due in the inbox and nothing is in hand (for tests and scripts). */
  idle(): Promise<void>;
}

/** What {@link Inbox.add} did: `added`, or `duplicate` when the id was already there (in any state). */
export type InboxAddOutcome = 'added' | 'duplicate';

/** What one {@link Inbox.runOnce} did. */
export interface InboxRunResult {
  readonly done: number;
  readonly failed: number;
  /** Leases lost before the done mark (another worker took the event after this one's lease ran out). */
  readonly lost: number;
}
