/**
 * The inbox in Cloudflare D1: a durable inbox for a receiver on Cloudflare Workers.
 *
 * @module shop-mgmt/inbox/d1
 */
// `shop-mgmt/inbox/d1`: the SQL inbox (sql-store.ts, the SQLite store's statements) over a D1 binding, driven by
// src/sync/sql/d1.ts. Runtime-neutral (no node: import): it runs in workerd, and in Node against miniflare's
// D1. D1 has no interactive transaction; how the store's transactions map onto its batches is said in
// sql-store.ts.
import { DatabaseUnavailableError } from '../database-unavailable.js';
import { type D1DatabaseLike, D1Driver, type D1PreparedStatementLike, type D1ResultLike } from '../sql/d1.js';
import { SqlInboxStore, tableName } from './sql-store.js';

export { type D1DatabaseLike, type D1PreparedStatementLike, type D1ResultLike, DatabaseUnavailableError };

/** Options of {@link D1InboxStore}. */
export interface D1InboxOptions {
  /** The inbox table's name (your own tables can live in the same database). @default 'shop_inbox' */
  table?: string;
}

/**
 * An inbox store in Cloudflare D1: `new Inbox(new D1InboxStore(env.DB))`. The same guarantees as the SQLite
 * store: one row per event id (a second delivery is a duplicate), leases with an expiry (a Worker torn down
 * mid-run leaves its events to be taken again once their lease runs out), done marks, retries and dead
 * letters, one event per object at a time with `orderingKey`.
 *
 * The worker's handler gets `tx`, with one difference from SQLite's, as D1 has no interactive transaction:
 * `tx.execute` statements are held and run after the handler returns, in one batch with the event's done
 * mark (all commit, or none: exactly once), so the `changes` of their result cannot be read inside the
 * handler; `tx.query` runs reads (SELECT) at once, on committed data. While a handler runs nothing locks its
 * event: the worker renews the lease (heartbeats), and a run whose lease was taken over commits nothing.
 *
 * While D1 says to try again (its object reset, the network to it lost, overloaded) calls reject with a
 * {@link DatabaseUnavailableError}: the webhook handler answers 503 and the sender retries.
 *
 * @example
 * import { Inbox } from 'shop-mgmt/inbox';
 * import { D1InboxStore } from 'shop-mgmt/inbox/d1';
 * const inbox = new Inbox(new D1InboxStore(env.DB), { orderingKey: true });
 */
export class D1InboxStore extends SqlInboxStore {
  /** @param db the D1 binding (`env.DB`); it stays the runtime's (`close()` leaves it). */
  constructor(db: D1DatabaseLike, options: D1InboxOptions = {}) {
    super(new D1Driver(db), tableName(options.table));
  }
}
