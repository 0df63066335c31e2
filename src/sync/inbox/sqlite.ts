/**
 * The inbox in SQLite: the embedded default, for a receiver on one machine.
 *
 * @module shop-mgmt/inbox/sqlite
 */
// One connection per store, its statements one at a time, so a transaction open across a handler's awaits
// never mixes with another's.
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
  /** @default 'shop_inbox' */
  table?: string;
}

/** An inbox store in SQLite. One writer at a time: keep handlers short, deliveries wait behind them. */
export class SqliteInboxStore extends SqlInboxStore {
  /** Opens (or creates) the file in WAL mode. */
  static async open(path: string, options: SqliteInboxOptions = {}): Promise<SqliteInboxStore> {
    const busy = busyOf(options);
    // No wait inside SQLite (it would block the event loop): the store waits between attempts itself.
    const db = await openSqliteDatabase(path, { ...options, busyTimeoutMs: 0 });
    return new SqliteInboxStore(db, { ...options, busyTimeoutMs: busy }, true);
  }

  /** @param db better-sqlite3 or `node:sqlite`; the caller closes it unless `owned`. */
  constructor(db: SqliteDatabaseLike, options: Omit<SqliteInboxOptions, 'driver'> = {}, owned = false) {
    if (typeof db?.prepare !== 'function' || typeof db.exec !== 'function') {
      throw new ShopError('SqliteInboxStore needs a better-sqlite3 Database or a node:sqlite DatabaseSync.');
    }
    super(new SqliteDriver(db, { owned, busyTimeoutMs: busyOf(options) }), tableName(options.table));
  }
}
