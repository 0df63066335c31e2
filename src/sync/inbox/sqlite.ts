/**
 * The inbox in SQLite: the embedded default, for a receiver on one machine.
 *
 * @module shop-mgmt/inbox/sqlite
 */
// `shop-mgmt/inbox/sqlite`: better-sqlite3 (an optional peer dependency, loaded only here) or Node's own
// `node:sqlite` where present. One connection per store; its statements run one at a time (an async lock),
// so a worker's transaction, which stays open while the handler awaits, never mixes with another's.
// Another process's write lock is waited for here, between attempts, not inside the driver: SQLite's own
// busy wait is synchronous and would block the event loop (and every delivery behind it) for its whole length.
import { ERROR_CLASS, ShopError } from '../../core/errors/shop-error.js';
import { patiently } from '../sqlite-busy.js';
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
  /**
   * How long a statement waits for another process's write lock, in ms, before it fails with a retryable
   * `DatabaseUnavailableError` (the receiver answers 503 at its own `storeTimeoutMs` before that). The
   * store waits between attempts, so the event loop runs on meanwhile; the wait counts from the call, so calls
   * queued behind a locked one do not stack their waits. @default 2000
   */
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
    super(new SqliteDriver(db, owned, busyOf(options)), tableName(options.table));
  }
}

/** Why a SQLite database could not be opened: `driver_missing` (install one) or `cannot_open` (the path). */
export class SqliteOpenError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'SqliteOpenError';
  override readonly name: string = 'SqliteOpenError';

  constructor(
    /** `driver_missing`: neither better-sqlite3 nor node:sqlite loads; `cannot_open`: the file cannot be opened. */
    readonly reason: 'driver_missing' | 'cannot_open',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
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
  busyOf(options);
  const db = await openDatabase(path, options.driver);
  try {
    configure(db, options);
  } catch (error) {
    db.close();
    // A file that opens but cannot be written (read-only, a read-only folder for the WAL files).
    throw await cannotOpen(path, error);
  }
  return db;
}

async function openDatabase(path: string, driver: SqliteInboxOptions['driver']): Promise<SqliteDatabaseLike> {
  if (typeof path !== 'string' || path === '')
    throw new ShopError('SqliteInboxStore.open needs a file path.');
  const errors: unknown[] = [];
  // A driver that loads and then cannot open the file says why (a missing folder, no permission), not
  // "install a driver".
  if (driver !== 'node:sqlite') {
    let Database: (new (file: string) => SqliteDatabaseLike) | undefined;
    try {
      const module = (await import(/* webpackIgnore: true */ 'better-sqlite3' as string)) as {
        default: new (file: string) => SqliteDatabaseLike;
      };
      Database = module.default;
    } catch (error) {
      errors.push(error);
      if (driver === 'better-sqlite3') throw missingDriver(errors);
    }
    if (Database) {
      try {
        return new Database(path);
      } catch (error) {
        // better-sqlite3 loads its native part on first use: one built for another Node is a missing driver
        // (node:sqlite takes over), not a file that cannot be opened.
        if (!nativeLoadFailure(error)) throw await cannotOpen(path, error);
        errors.push(error);
        if (driver === 'better-sqlite3') throw missingDriver(errors);
      }
    }
  }
  let NodeDatabase: new (file: string) => SqliteDatabaseLike;
  try {
    // The specifier is put together at run time: bundlers rewrite a literal `node:sqlite` to `sqlite` (a
    // prefix-only built-in has no such name), which then fails to load.
    const specifier = ['node', 'sqlite'].join(':');
    const module = (await import(/* webpackIgnore: true */ specifier)) as {
      DatabaseSync: new (file: string) => SqliteDatabaseLike;
    };
    NodeDatabase = module.DatabaseSync;
  } catch (error) {
    errors.push(error);
    throw missingDriver(errors);
  }
  try {
    return new NodeDatabase(path);
  } catch (error) {
    throw await cannotOpen(path, error);
  }
}

/** A native addon that would not load (built for another Node's ABI, or never built). */
function nativeLoadFailure(error: unknown): boolean {
  const failure = error as { code?: unknown; message?: unknown } | null;
  return (
    failure?.code === 'ERR_DLOPEN_FAILED' ||
    /NODE_MODULE_VERSION|Could not locate the bindings file|better_sqlite3\.node/.test(
      String(failure?.message),
    )
  );
}

/** The open failure with its real cause, read from the file system where the driver's message is vague. */
async function cannotOpen(path: string, error: unknown): Promise<SqliteOpenError> {
  const said = error instanceof Error ? error.message : String(error);
  let cause = said;
  try {
    const { access, stat } = await import('node:fs/promises');
    const { constants } = await import('node:fs');
    const { dirname, resolve } = await import('node:path');
    const file = resolve(path);
    const code = async (work: Promise<unknown>) =>
      work.then(
        () => null,
        (failure: NodeJS.ErrnoException) => failure.code ?? 'error',
      );
    // The nearest folder on the way up that exists (or the file that stands where a folder should).
    let dir = dirname(file);
    let missing: string | null = null;
    for (;;) {
      const found = await code(stat(dir));
      if (found === null || dir === dirname(dir)) break;
      missing = dir;
      dir = dirname(dir);
    }
    const info = await stat(dir).catch(() => null);
    if (info && !info.isDirectory()) cause = `${dir} is a file, not a directory`;
    else if (missing !== null) cause = `directory ${dirname(file)} does not exist`;
    else if ((await code(stat(file))) === null && (await code(access(file, constants.R_OK | constants.W_OK))))
      cause = `permission denied on ${file}`;
    else if ((await code(access(dir, constants.W_OK | constants.X_OK))) !== null)
      cause = `permission denied: cannot create files in ${dir}`;
    if (cause !== said) cause = `${cause} (${said})`;
  } catch {
    // No file system to ask (a runtime without node:fs): the driver's own words.
  }
  return new SqliteOpenError('cannot_open', `cannot open the SQLite database ${path}: ${cause}`, {
    cause: error,
  });
}

/**
 * Whether a statement gives rows back, read from its text: better-sqlite3 says so itself (`reader`), node:sqlite
 * does not, and `all()` on a statement that writes nothing back is wasted.
 */
export function returnsRows(sql: string): boolean {
  return /^\s*(select|with|pragma|values)\b|\breturning\b/i.test(sql);
}

function missingDriver(errors: unknown[]): SqliteOpenError {
  return new SqliteOpenError(
    'driver_missing',
    'The SQLite inbox needs better-sqlite3 (npm install better-sqlite3) or a Node with node:sqlite (22.5+).',
    { cause: errors[0] },
  );
}

function busyOf(options: Pick<SqliteInboxOptions, 'busyTimeoutMs'>): number {
  const busy = options.busyTimeoutMs ?? 2000;
  if (!Number.isInteger(busy) || busy < 0)
    throw new ShopError('busyTimeoutMs must be a whole number, 0 or more.');
  return busy;
}

function configure(db: SqliteDatabaseLike, options: SqliteInboxOptions): void {
  const busy = busyOf(options);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.exec(`PRAGMA busy_timeout = ${busy}`);
}

class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly #db: SqliteDatabaseLike;
  readonly #owned: boolean;
  readonly #busyMs: number;
  /** The connection's own busy_timeout, set back after each attempt (a database the caller opened). */
  readonly #ownBusy: number;
  readonly #statements = new Map<string, { statement: SqliteStatementLike; order: number[] | null }>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: SqliteDatabaseLike, owned: boolean, busyMs: number) {
    this.#db = db;
    this.#owned = owned;
    this.#busyMs = busyMs;
    let current = 0;
    try {
      const row = db.prepare('PRAGMA busy_timeout').all()[0] as Record<string, unknown> | undefined;
      current = Number(row ? Object.values(row)[0] : 0) || 0;
    } catch {
      // A wrapper without pragmas: nothing to set back.
    }
    this.#ownBusy = current;
  }

  run(sql: string, params: readonly unknown[]): Promise<SqlResult> {
    // The wait for another process's lock counts from the call, queued or not: a call queued behind a
    // locked one fails at its own bound instead of starting a wait of its own.
    const deadline = performance.now() + this.#busyMs;
    return this.#exclusive(() => this.#patiently(() => this.#run(sql, params), deadline));
  }

  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    const deadline = performance.now() + this.#busyMs;
    return this.#exclusive(async () => {
      await this.#patiently(() => this.#db.exec('BEGIN IMMEDIATE'), deadline);
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

  /** `step`, waiting for another process's lock between attempts until `deadline`. */
  #patiently<T>(step: () => T, deadline: number): Promise<T> {
    return patiently(() => this.#withoutBusyWait(step), deadline, this.#busyMs);
  }

  /** `step` with SQLite's own (blocking) busy wait off on a connection the caller opened with one. */
  #withoutBusyWait<T>(step: () => T): T {
    if (this.#ownBusy === 0) return step();
    this.#db.exec('PRAGMA busy_timeout = 0');
    try {
      return step();
    } finally {
      this.#db.exec(`PRAGMA busy_timeout = ${this.#ownBusy}`);
    }
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
