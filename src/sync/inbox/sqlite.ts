/**
 * The inbox in SQLite: the embedded default, for a receiver on one machine.
 *
 * @module shop-mgmt/inbox/sqlite
 */
// `shop-mgmt/inbox/sqlite`: better-sqlite3 (an optional peer dependency, loaded only here) or Node's own
// `node:sqlite` where present, opened and driven by src/sync/sql/sqlite.ts (the sync engine's SQLite too). One
// connection per store; its statements run one at a time (an async lock), so a worker's transaction, which
// stays open while the handler awaits, never mixes with another's. Another process's write lock is waited for
// between attempts, not inside the driver (SQLite's own busy wait would block the event loop).
import { ShopError } from '../../core/errors/shop-error.js';
import {
  busyOf,
  openSqliteDatabase,
  returnsRows,
  type SqliteDatabaseLike,
  SqliteDriver,
  SqliteOpenError,
  type SqliteOpenOptions,
  type SqliteStatementLike,
} from '../sql/sqlite.js';
import { SqlInboxStore, tableName } from './sql-store.js';

export {
  openSqliteDatabase,
  returnsRows,
  type SqliteDatabaseLike,
  SqliteOpenError,
  type SqliteOpenOptions,
  type SqliteStatementLike,
};

/** Options of {@link SqliteInboxStore.open}. */
export interface SqliteInboxOptions extends SqliteOpenOptions {
  /** The inbox table's name (the sync engine's tables can live in the same file). @default 'shop_inbox' */
  table?: string;
}

/**
 * An inbox store in SQLite. Open a file with {@link SqliteInboxStore.open}, or wrap a database you opened
 * yourself (better-sqlite3 or `node:sqlite`) with `new SqliteInboxStore(db)` (you close it then).
 *
 * A worker's handler gets `tx`: its statements run in the transaction that marks the event done. SQLite has
 * one writer at a time, so keep handlers short: deliveries wait for a running handler's transaction before
 * they are written (each write is bounded by the webhook handler's `storeTimeoutMs`).
 */
export class SqliteInboxStore extends SqlInboxStore {
  /** Opens (or creates) the database file, loads the driver, and sets WAL mode. */
  static async open(path: string, options: SqliteInboxOptions = {}): Promise<SqliteInboxStore> {
    const busy = busyOf(options);
    // No wait inside SQLite (it would block the event loop): the store waits between attempts itself.
    const db = await openSqliteDatabase(path, { ...options, busyTimeoutMs: 0 });
    return new SqliteInboxStore(db, { ...options, busyTimeoutMs: busy }, true);
  }

  /**
   * @param db an open better-sqlite3 `Database` or `node:sqlite` `DatabaseSync`; the caller closes it
   * unless `owned`.
   */
  constructor(db: SqliteDatabaseLike, options: Omit<SqliteInboxOptions, 'driver'> = {}, owned = false) {
    if (typeof db?.prepare !== 'function' || typeof db.exec !== 'function') {
      throw new ShopError('SqliteInboxStore needs a better-sqlite3 Database or a node:sqlite DatabaseSync.');
    }
    super(new SqliteDriver(db, { owned, busyTimeoutMs: busyOf(options) }), tableName(options.table));
  }
}
