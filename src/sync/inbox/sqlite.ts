/**
 * The inbox in SQLite: the embedded default, for a receiver on one machine.
 *
 * @module shop-mgmt/inbox/sqlite
 */
// `shop-mgmt/inbox/sqlite`: better-sqlite3 (an optional peer dependency, loaded only here) or Node's own
// `node:sqlite` where present. One connection per store; its statements run one at a time (an async lock),
// so a worker's transaction, which stays open while the handler awaits, never mixes with another's.
import { ShopError } from '../../core/errors/shop-error.js';
import { type SqlDriver, SqlInboxStore, type SqlResult, type SqlSession, tableName } from './sql-store.js';

/** The part of a better-sqlite3 or `node:sqlite` statement used. */
export interface SqliteStatementLike {
  /** Runs the statement with `params` bound; gives how many rows it changed. */
  run(...params: unknown[]): { changes: number | bigint };
  /** Runs the statement with `params` bound; gives the rows it returns. */
  all(...params: unknown[]): unknown[];
  /** better-sqlite3: true when the statement returns rows (`node:sqlite` has no such flag). */
  readonly reader?: boolean;
}

/** The part of a better-sqlite3 `Database` or a `node:sqlite` `DatabaseSync` used. */
export interface SqliteDatabaseLike {
  /** Compiles one SQL statement. */
  prepare(sql: string): SqliteStatementLike;
  /** Runs SQL text without parameters (one or more statements). */
  exec(sql: string): unknown;
  /** Closes the database connection. */
  close(): unknown;
}

/** Options of {@link SqliteInboxStore.open}. */
export interface SqliteInboxOptions {
  /** The inbox table's name (the sync engine's tables can live in the same file). @default 'shop_inbox' */
  table?: string;
  /**
   * `normal` (WAL, the default) survives any crash of the process (SIGKILL, OOM, a deploy); a power cut or
   * an OS crash may lose the last transactions. `full` syncs every commit to disk: survives those too, at a
   * few ms per write.
   */
  synchronous?: 'normal' | 'full';
  /** How long a statement waits for another process's write lock, in ms. @default 2000 */
  busyTimeoutMs?: number;
  /** The driver to load when given a path. @default better-sqlite3, else node:sqlite */
  driver?: 'better-sqlite3' | 'node:sqlite';
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
    const db = await openSqliteDatabase(path, options);
    return new SqliteInboxStore(db, options, true);
  }

  /**
   * @param db an open better-sqlite3 `Database` or `node:sqlite` `DatabaseSync`; the caller closes it
   * unless `owned`.
   */
  constructor(db: SqliteDatabaseLike, options: Omit<SqliteInboxOptions, 'driver'> = {}, owned = false) {
    if (typeof db?.prepare !== 'function' || typeof db.exec !== 'function') {
      throw new ShopError('SqliteInboxStore needs a better-sqlite3 Database or a node:sqlite DatabaseSync.');
    }
    super(new SqliteDriver(db, owned), tableName(options.table));
  }
}

/**
 * Opens (or creates) a SQLite file as {@link SqliteInboxStore.open} does: better-sqlite3 where it loads, else
 * `node:sqlite`; WAL mode, `synchronous`, `busy_timeout`. For your own tables beside the inbox (or a store over
 * `new SqliteInboxStore(db)`); close it yourself.
 */
export async function openSqliteDatabase(
  path: string,
  options: Omit<SqliteInboxOptions, 'table'> = {},
): Promise<SqliteDatabaseLike> {
  const db = await openDatabase(path, options.driver);
  try {
    configure(db, options);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

async function openDatabase(path: string, driver: SqliteInboxOptions['driver']): Promise<SqliteDatabaseLike> {
  if (typeof path !== 'string' || path === '')
    throw new ShopError('SqliteInboxStore.open needs a file path.');
  const errors: unknown[] = [];
  if (driver !== 'node:sqlite') {
    try {
      const module = (await import(/* webpackIgnore: true */ 'better-sqlite3' as string)) as {
        default: new (file: string) => SqliteDatabaseLike;
      };
      return new module.default(path);
    } catch (error) {
      errors.push(error);
      if (driver === 'better-sqlite3') throw missingDriver(errors);
    }
  }
  try {
    // The specifier is put together at run time: bundlers rewrite a literal `node:sqlite` to `sqlite` (a
    // prefix-only built-in has no such name), which then fails to load.
    const specifier = ['node', 'sqlite'].join(':');
    const module = (await import(/* webpackIgnore: true */ specifier)) as {
      DatabaseSync: new (file: string) => SqliteDatabaseLike;
    };
    return new module.DatabaseSync(path);
  } catch (error) {
    errors.push(error);
    throw missingDriver(errors);
  }
}

/**
 * Whether a statement gives rows back, read from its text: better-sqlite3 says so itself (`reader`), node:sqlite
 * does not, and `all()` on a statement that writes nothing back is wasted.
 */
export function returnsRows(sql: string): boolean {
  return /^\s*(select|with|pragma|values)\b|\breturning\b/i.test(sql);
}

function missingDriver(errors: unknown[]): ShopError {
  return new ShopError(
    'The SQLite inbox needs better-sqlite3 (npm install better-sqlite3) or a Node with node:sqlite (22.5+).',
    { cause: errors[0] },
  );
}

function configure(db: SqliteDatabaseLike, options: SqliteInboxOptions): void {
  const busy = options.busyTimeoutMs ?? 2000;
  if (!Number.isInteger(busy) || busy < 0)
    throw new ShopError('busyTimeoutMs must be a whole number, 0 or more.');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.exec(`PRAGMA busy_timeout = ${busy}`);
}

class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly #db: SqliteDatabaseLike;
  readonly #owned: boolean;
  readonly #statements = new Map<string, { statement: SqliteStatementLike; order: number[] | null }>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: SqliteDatabaseLike, owned: boolean) {
    this.#db = db;
    this.#owned = owned;
  }

  run(sql: string, params: readonly unknown[]): Promise<SqlResult> {
    return this.#exclusive(async () => this.#run(sql, params));
  }

  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.#exclusive(async () => {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work({ run: async (sql, params) => this.#run(sql, params) });
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        try {
          this.#db.exec('ROLLBACK');
        } catch {
          // Already rolled back (SQLite ends a transaction itself on some errors).
        }
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.#exclusive(async () => {
      if (this.#owned) this.#db.close();
    });
  }

  /** One at a time on this connection, in call order. */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #run(sql: string, params: readonly unknown[]): SqlResult {
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      // The inbox's own statements number their parameters (`?1`, used twice); both drivers take a plain
      // `?` list more readily, so the numbers become an order of the values.
      const order: number[] = [];
      const text = sql.replace(/\?(\d+)/g, (_, index: string) => {
        order.push(Number(index) - 1);
        return '?';
      });
      prepared = { statement: this.#db.prepare(text), order: order.length > 0 ? order : null };
      if (this.#statements.size >= 200) this.#statements.clear();
      this.#statements.set(sql, prepared);
    }
    const { statement, order } = prepared;
    const values = (order ? order.map((index) => params[index]) : params).map(bindable);
    if (statement.reader === false) {
      return { rows: [], changes: Number(statement.run(...values).changes) };
    }
    if (statement.reader === true || returnsRows(sql)) {
      const rows = statement.all(...values) as Record<string, unknown>[];
      return { rows, changes: 0 };
    }
    return { rows: [], changes: Number(statement.run(...values).changes) };
  }
}

function bindable(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
