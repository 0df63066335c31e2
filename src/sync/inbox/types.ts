// The inbox's contracts: the storage adapter (InboxStore), the handler's context, the entry shapes.
import type { ShopEvent } from '../../webhooks/events.js';

/** Where an event was written into the inbox from. */
export type InboxSource = 'webhook' | 'feed' | 'listen' | 'manual';

/** An entry's state; `dead` means it failed `maxAttempts` times (`replay` makes it pending again). */
export type InboxStatus = 'pending' | 'processing' | 'done' | 'dead';

/** One event as the inbox holds it. */
export interface InboxEntry {
  readonly eventId: string;
  readonly event: ShopEvent;
  readonly status: InboxStatus;
  /** Runs started, including one whose process died. */
  readonly attempts: number;
  readonly source: InboxSource;
  /** The object the event is about, when ordering was asked for. */
  readonly orderingKey: string | null;
  /** ms since the epoch. */
  readonly receivedAt: number;
  /** The last failure's message. */
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

/** An event a worker holds under a lease. */
export interface InboxLease {
  readonly eventId: string;
  readonly event: ShopEvent;
  /** 1 for the first run. */
  readonly attempt: number;
  readonly token: string;
  readonly source: InboxSource;
  readonly orderingKey: string | null;
  /** Its last run never finished: leased alone, so a crash is counted against it only. */
  readonly suspect?: boolean;
}

/** What {@link InboxStore.lease} is asked for. */
export interface LeaseRequest {
  readonly limit: number;
  /** Lease length in ms; a worker that stops renewing loses the event after it. */
  readonly leaseMs: number;
  /** ms since the epoch. */
  readonly now: number;
  /** One event per ordering key at a time, the key's oldest not done or dead (a failure blocks the rest). */
  readonly ordered: boolean;
  /** The Redis adapter's consumer name. */
  readonly worker: string;
  /** The worker holds nothing, so a suspect may be leased (as the only event). @default true */
  readonly alone?: boolean;
  /** A retry time further ahead than this (ms) was set before the clock stepped back: due now. */
  readonly retryHorizonMs?: number;
}

/** What {@link InboxStore.prune} is asked to delete. */
export interface PruneRequest {
  readonly doneBefore: number;
  /** null keeps dead letters until replayed. */
  readonly deadBefore: number | null;
  readonly limit: number;
  /** ms since the epoch. */
  readonly now: number;
}

/** What a failed run leaves: retried at `retryAt`, or dead. */
export interface InboxFailure {
  readonly error: string;
  readonly retryAt: number;
  /** The last attempt failed: the event goes to the dead letters. */
  readonly dead: boolean;
  readonly now: number;
}

/**
 * SQL in the inbox's own transaction, committed with the event's done mark or not at all. Write `?` for each
 * parameter (Postgres numbers them; `$1` is sent as written).
 */
export interface InboxTransaction {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs a statement and gives its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a statement and gives the count of rows changed. */
  execute(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
}

/** What a handler is given beside the event; `tx` is defined on the SQL stores only. */
export interface InboxHandlerContext<Tx extends InboxTransaction | undefined = InboxTransaction | undefined> {
  readonly source: InboxSource;
  /** 1 for the first run. */
  readonly attempt: number;
  /** Aborted at `handlerTimeoutMs`, on a lost lease, or by `stop()`; `tx` then rolls back. */
  readonly signal: AbortSignal;
  /** Commits with the done mark (SQL stores only). */
  readonly tx: Tx;
}

/** Processes one event from the inbox; a throw (or rejection) means "retry later". */
export type InboxHandler<Tx extends InboxTransaction | undefined = InboxTransaction | undefined> = (
  event: ShopEvent,
  context: InboxHandlerContext<Tx>,
) => unknown;

/** The storage behind an {@link Inbox}; each method must be atomic across every process sharing it. */
export interface InboxStore<Tx extends InboxTransaction | undefined = InboxTransaction | undefined> {
  /** `complete` holds the row locked while `work` runs, so the worker sends no heartbeat. */
  readonly locksWhileWorking?: boolean;
  /** Creates the tables (or stream and group) if missing. */
  setup(): Promise<void>;
  /** Writes an event as pending; false when its id is already there. */
  add(record: InboxRecord): Promise<boolean>;
  /** Leases events pending and due, or whose lease ran out, each with a new token and one more attempt. */
  lease(request: LeaseRequest): Promise<InboxLease[]>;
  /** Extends a lease still held; false when it was lost. */
  renew(lease: InboxLease, leaseMs: number, now: number): Promise<boolean>;
  /** Runs `work` and marks the event done while the lease holds, in one transaction where the store has them. */
  complete(lease: InboxLease, work: (tx: Tx) => Promise<void>, now: number): Promise<'done' | 'lost'>;
  /** Ends a lease after a failed run: pending again from `retryAt`, or dead. */
  fail(lease: InboxLease, failure: InboxFailure): Promise<void>;
  /** Makes an event pending again with its attempts reset; false when the id is unknown. */
  replay(eventId: string, now: number): Promise<boolean>;
  /** An event's entry (a lease that ran out shows as pending). */
  get(eventId: string, now: number): Promise<InboxEntry | null>;
  /** Entries in one state, oldest first. */
  list(status: InboxStatus, limit: number, now: number): Promise<InboxEntry[]>;
  /** Deletes settled entries and gives the count; a store without it keeps everything. */
  prune?(request: PruneRequest): Promise<number>;
  /** Releases what the store opened itself (not a client or pool the caller passed in). */
  close(): Promise<void>;
}
