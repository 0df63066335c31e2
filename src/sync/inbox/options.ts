// The Inbox's and its worker's options and results.
import type { ShopEvent } from '../../webhooks/events.js';

/** An event as an ordering key function sees it: `data.object.id` readable on any type. */
export type InboxKeyedEvent = ShopEvent & { data: { object: { id?: string | number } } };

/** How long the inbox keeps settled events. */
export interface InboxRetention {
  /** ms a done event is kept as a duplicate guard; keep it past the feed's 30 days. @default 31 days */
  doneMs?: number;
  /** ms a dead letter is kept. @default until replayed */
  deadMs?: number;
}

/** Options of {@link Inbox}. */
export interface InboxOptions {
  /**
   * One event per key at a time, oldest first; `true` keys by object kind and id. A failing event holds back
   * its key's later ones. @default no ordering
   */
  orderingKey?: true | ((event: InboxKeyedEvent) => string | number | null | undefined);
  /** Runs before an event goes to the dead letters. @default 10 */
  maxAttempts?: number;
  /** Doubled per attempt, with jitter. @default 1000 */
  retryBaseMs?: number;
  /** @default 3_600_000 */
  retryMaxMs?: number;
  /** Workers prune in small batches. */
  retention?: InboxRetention;
  /** Values cut out of a stored `lastError`. @default SHOP_API_KEY and SHOP_WEBHOOK_SECRET */
  secrets?: readonly string[];
  /** For tests. @default the wall clock read once, then advanced monotonically */
  now?: () => number;
}

/** Options of {@link Inbox.work}. */
export interface InboxWorkerOptions {
  /** @default 4 */
  concurrency?: number;
  /** A dead worker holds its events this long at most. @default 30 */
  leaseSeconds?: number;
  /** Past it the `signal` aborts, `tx` rolls back and the run counts as failed. @default a third of the lease */
  handlerTimeoutMs?: number;
  /** Longest `stop()` waits for the events in hand. @default handlerTimeoutMs + 5000 */
  stopTimeoutMs?: number;
  /** @default 500 */
  pollMs?: number;
  /** @default console.error */
  onError?: (error: unknown, entry: { eventId: string; attempt: number } | null) => void;
  /** The Redis adapter's consumer name. @default random */
  name?: string;
}

/** A running worker; see {@link Inbox.work}. */
export interface InboxWorker {
  /** Stops leasing; resolves once the events in hand are finished. */
  stop(): Promise<void>;
  /** Resolves once nothing is due or in hand. */
  idle(): Promise<void>;
}

/** What {@link Inbox.add} did. */
export type InboxAddOutcome = 'added' | 'duplicate';

/** What one {@link Inbox.runOnce} did. */
export interface InboxRunResult {
  readonly done: number;
  readonly failed: number;
  /** Leases lost before the done mark. */
  readonly lost: number;
}
