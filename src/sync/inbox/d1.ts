/**
 * The inbox in Cloudflare D1: a durable inbox for a receiver on Cloudflare Workers.
 *
 * @module shop-mgmt/inbox/d1
 */
// The SQL inbox over a D1 binding; runtime-neutral (no node: import).
import { DatabaseUnavailableError } from '../database-unavailable.js';
import { type D1DatabaseLike, D1Driver, type D1PreparedStatementLike, type D1ResultLike } from '../sql/d1.js';
import { SqlInboxStore, tableName } from './sql-store.js';

export { type D1DatabaseLike, type D1PreparedStatementLike, type D1ResultLike, DatabaseUnavailableError };

/** Options of {@link D1InboxStore}. */
export interface D1InboxOptions {
  /** @default 'shop_inbox' */
  table?: string;
}

/**
 * An inbox store in Cloudflare D1, with the SQLite store's guarantees. `tx.execute` statements are held and
 * commit after the handler, with the done mark (their `changes` is unknown inside it); `tx.query` reads at once.
 * @example
 * import { Inbox } from 'shop-mgmt/inbox';
 * import { D1InboxStore } from 'shop-mgmt/inbox/d1';
 * const inbox = new Inbox(new D1InboxStore(env.DB), { orderingKey: true });
 */
export class D1InboxStore extends SqlInboxStore {
  /** @param db the D1 binding (`close()` leaves it). */
  constructor(db: D1DatabaseLike, options: D1InboxOptions = {}) {
    super(new D1Driver(db), tableName(options.table));
  }
}
