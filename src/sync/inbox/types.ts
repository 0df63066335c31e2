// The inbox's contracts: what a storage adapter implements (InboxStore), what a worker's handler gets
// (InboxHandlerContext, with a transaction handle on the SQL adapters), and what the inbox says about an event.
import type { ShopEvent } from '../../webhooks/events.js';

/** Where an event was written into the inbox from. */
export type InboxSource = 'webhook' | 'feed' | 'listen' | 'manual';

/**
 * - `pending`: waiting for a worker (or for its retry time after a failure);
 * - `processing`: leased by a worker whose lease has not run out;
 * - `done`: the handler succeeded (with the SQL adapters: in the same transaction as the done mark);
 * - `dead`: failed `maxAttempts` times; `replay(eventId)` makes it pending again.
 */
export type InboxStatus = 'pending' | 'processing' | 'done' | 'dead';

/** One event as the inbox holds it. */
export interface InboxEntry {
  readonly eventId: string;
  readonly event: ShopEvent;
  readonly status: InboxStatus;
  /** Handler runs started so far (a run whose process died counts). */
  readonly attempts: number;
  readonly source: InboxSource;
  /** The object the event is about, when ordering was asked for; null otherwise. */
  readonly orderingKey: string | null;
  /** When it was written, in ms since the epoch. */
  readonly receivedAt: number;
  /** The last failure's message, or null. */
  readonly lastError: string | null;
}

/** What {@link InboxStore.add} writes. */
export interface InboxRecord {
  readonly event: ShopEvent;
  readonly source: InboxSource;
  readonly orderingKey: string | null;
  /** ms since the epoch. */
  readonly now: number;
}

/** An event a worker holds under a lease; `token` proves the lease is still this worker's. */
export interface InboxLease {
  readonly eventId: string;
  readonly event: ShopEvent;
  /** This run's number, 1 for the first. */
  readonly attempt: number;
  readonly token: string;
  readonly source: InboxSource;
  readonly orderingKey: string | null;
  /**
   * True when the event's last run never finished (its process died, or it lost its lease): a suspect, leased
   * alone, and the worker takes nothing else until it is settled, so a death is counted against it only.
   */
  readonly suspect?: boolean;
}

/** What {@link InboxStore.lease} is asked for. */
export interface LeaseRequest {
  /** Most events to lease. */
  readonly limit: number;
  /** Lease length in ms: a worker that stops renewing loses the event after it. */
  readonly leaseMs: number;
  /** ms since the epoch. */
  readonly now: number;
  /**
   * Lease at most one event per ordering key at a time, and for a key only its oldest event not done or
   * dead (a failed one blocks the later ones of its key until it succeeds or goes dead).
   */
  readonly ordered: boolean;
  /** A name for this worker (the Redis adapter's consumer name). */
  readonly worker: string;
  /**
   * True when the worker holds nothing: only then may a suspect (an event whose last run never finished) be
   * leased, and then it is the only event given. False: suspects are left for an empty-handed worker.
   * @default true
   */
  readonly alone?: boolean;
  /**
   * No retry is ever set further ahead than this (ms): a retry time further ahead of `now`, or a lease
   * further ahead than `leaseMs`, was set before the clock stepped back, and is due now. @default none
   */
  readonly retryHorizonMs?: number;
}

/** What {@link InboxStore.prune} is asked to delete. */
export interface PruneRequest {
  /** Done events marked done before this (ms since the epoch). */
  readonly doneBefore: number;
  /** Dead letters that went dead before this, or null to keep them until replayed. */
  readonly deadBefore: number | null;
  /** Most entries deleted in this call (the work of one call stays small). */
  readonly limit: number;
  /** ms since the epoch. */
  readonly now: number;
}

/** What a failed run leaves: retried at `retryAt`, or dead. */
export interface InboxFailure {
  readonly error: string;
  /** ms since the epoch of the next try. */
  readonly retryAt: number;
  /** True after the last attempt: the event goes to the dead letters. */
  readonly dead: boolean;
  readonly now: number;
}

/**
 * SQL in the inbox's own transaction, dialect-neutral: write `?` for each parameter (the Postgres adapter
 * numbers them `$1, $2...`; a statement that already uses `$1` is sent as written). Values: string, number,
 * bigint, boolean (stored as 0/1 on SQLite), null, Uint8Array. Your statements commit with the event's
 * done mark, or not at all.
 */
export interface InboxTransaction {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs a statement and gives its rows (an empty array for one that returns none). */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a statement and gives how many rows it changed. */
  execute(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
}

/**
 * What a worker's handler is given beside the event. `Tx` is the store's transaction: `InboxTransaction` on
 * the SQLite, Postgres and D1 stores, `undefined` on the memory and Redis stores.
 */
export interface InboxHandlerContext<Tx extends InboxTransaction | undefined = InboxTransaction | undefined> {
  /** Where the event came from. */
  readonly source: InboxSource;
  /** This run's number, 1 for the first. */
  readonly attempt: number;
  /**
   * Aborted at the handler's deadline (`handlerTimeoutMs`), when the worker loses the lease (it could not
   * renew it in time), or when `stop()` cuts it off: stop work you can. With the SQL adapters nothing is lost
   * either way: your writes go through `tx`, which then refuses statements and rolls back.
   */
  readonly signal: AbortSignal;
  /**
   * The SQL adapters' transaction: statements run through it commit together with the event's done mark,
   * so the event's effect is applied exactly once. Undefined with the memory and Redis adapters; typed
   * by the store the inbox was made with (`new Inbox(sqliteStore)` gives a handler a defined `tx`).
   */
  readonly tx: Tx;
}

/** Processes one event from the inbox; a throw (or rejection) means "retry later". */
export type InboxHandler<Tx extends InboxTransaction | undefined = InboxTransaction | undefined> = (
  event: ShopEvent,
  context: InboxHandlerContext<Tx>,
) => unknown;

/**
 * The storage behind an {@link Inbox}. Implement it over another store if none of the adapters fits; every
 * method must be atomic across all processes that share the store:
 *
 * - `add` inserts keyed by event id; an id already there (in any state) is left as it is: false.
 * - `lease` takes up to `limit` events that are pending and due (their retry time passed), or whose lease
 *   ran out (their worker died): each gets a new token and its attempt count goes up by one. An event whose
 *   lease ran out is a suspect: leased only when `alone` is not false, and then as the only event.
 * - `renew` extends a lease still holding `token`; false when it was lost.
 * - `complete` marks the event done only while `token` still holds it, running `work` first: a store with
 *   transactions runs `work(tx)` and the done mark in one transaction ("lost" when the lease was gone, with
 *   nothing committed); a store without runs `work(undefined)` then marks done.
 * - `fail` ends a lease still holding `token`: pending again from `retryAt`, or dead.
 * - `replay` makes an event pending again from now with its attempts reset, whatever its state; false when
 *   the id is unknown.
 */
export interface InboxStore<Tx extends InboxTransaction | undefined = InboxTransaction | undefined> {
  /**
   * True when `complete` keeps the event locked against every other worker for as long as `work` runs (a
   * SQL transaction holding the row): the worker then sends no heartbeat.
   */
  readonly locksWhileWorking?: boolean;
  /** Creates the tables (or stream and group) if missing; called once before the first use. */
  setup(): Promise<void>;
  /** Writes an event as pending; false (and nothing changed) when its id is already in the inbox. */
  add(record: InboxRecord): Promise<boolean>;
  /**
   * Leases up to `limit` events that are pending and due, or whose lease ran out: each gets a new token and
   * one more attempt.
   */
  lease(request: LeaseRequest): Promise<InboxLease[]>;
  /** Extends a lease by `leaseMs` from `now` while its token still holds the event; false when it was lost. */
  renew(lease: InboxLease, leaseMs: number, now: number): Promise<boolean>;
  /**
   * Runs `work` and marks the event done, only while the lease's token still holds it: in one transaction
   * on a store that has them (`tx` given), else `work(undefined)` then the mark. `'lost'` when the lease was
   * gone.
   */
  complete(lease: InboxLease, work: (tx: Tx) => Promise<void>, now: number): Promise<'done' | 'lost'>;
  /** Ends a lease still holding the event after a failed run: pending again from `retryAt`, or dead. */
  fail(lease: InboxLease, failure: InboxFailure): Promise<void>;
  /**
   * Makes an event pending again from now, with its attempts reset, whatever its state; false when the id
   * is unknown.
   */
  replay(eventId: string, now: number): Promise<boolean>;
  /**
   * The entry of an event id as of `now` (a lease that ran out shows as pending), or null when the inbox
   * does not hold it.
   */
  get(eventId: string, now: number): Promise<InboxEntry | null>;
  /** Entries in one state, oldest first; at most `limit` (a store may scan a bounded number of entries). */
  list(status: InboxStatus, limit: number, now: number): Promise<InboxEntry[]>;
  /**
   * Deletes up to `limit` done events settled before `doneBefore` (and dead letters before `deadBefore`,
   * when given); gives how many it deleted. A store without it keeps everything.
   */
  prune?(request: PruneRequest): Promise<number>;
  /** Releases what the store opened itself (not a client or pool the caller passed in). */
  close(): Promise<void>;
}
