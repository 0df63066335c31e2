// SQLite for the inbox and the sync engine: better-sqlite3 (optional peer) or `node:sqlite`; WAL. Another
// process's write lock is waited for between attempts, not in the driver, whose busy wait blocks the event loop.
import { ERROR_CLASS, ShopError } from '../../core/errors/shop-error.js';
import { patiently } from '../sqlite-busy.js';
import type { SqlDriver, SqlResult, SqlSession } from './driver.js';

/** The part of a better-sqlite3 or `node:sqlite` statement used. */
export interface SqliteStatementLike {
  /** Runs the statement. */
  run(...params: unknown[]): { changes: number | bigint };
  /** Runs the statement for its rows. */
  all(...params: unknown[]): unknown[];
  /** better-sqlite3 only. */
  readonly reader?: boolean;
}

/** The part of a better-sqlite3 `Database` or a `node:sqlite` `DatabaseSync` used. */
export interface SqliteDatabaseLike {
  /** Compiles one SQL statement. */
  prepare(sql: string): SqliteStatementLike;
  /** Runs SQL text without parameters. */
  exec(sql: string): unknown;
  /** Closes the database connection. */
  close(): unknown;
}

/** How a SQLite file is opened (inbox and sync engine alike). */
export interface SqliteOpenOptions {
  /** `normal` survives a process crash, not a power cut; `full` syncs every commit. */
  synchronous?: 'normal' | 'full';
  /** Ms a statement waits for another process's write lock, the event loop running. @default 2000 */
  busyTimeoutMs?: number;
  /** The driver to load when given a path. @default better-sqlite3, else node:sqlite */
  driver?: 'better-sqlite3' | 'node:sqlite';
}

/** The busy wait of {@link SqliteOpenOptions} when none is given, in ms. */
export const SQLITE_BUSY_DEFAULT_MS = 2000;

/** Options of {@link SqliteDriver}. */
export interface SqliteDriverOptions {
  /** @default false */
  readonly owned?: boolean;
  /** Ms a statement waits for another process's write lock. @default 2000 */
  readonly busyTimeoutMs?: number;
  /** What waits behind a running transaction: every statement, or only transactions. @default 'all' */
  readonly queue?: 'all' | 'transactions';
}

/** Why a SQLite database could not be opened: `driver_missing` (install one) or `cannot_open` (the path). */
export class SqliteOpenError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'SqliteOpenError';
  override readonly name: string = 'SqliteOpenError';

  constructor(
    /** `driver_missing`: no driver loads; `cannot_open`: the file cannot be opened. */
    readonly reason: 'driver_missing' | 'cannot_open',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Opens a SQLite file as the inbox and the engine do, for your own tables; close it yourself. */
export async function openSqliteDatabase(
  path: string,
  options: SqliteOpenOptions = {},
): Promise<SqliteDatabaseLike> {
  busyOf(options);
  const db = await openDatabase(path, options.driver);
  try {
    configure(db, options);
  } catch (error) {
    db.close();
    // Opens but cannot be written (read-only file or folder).
    throw await cannotOpen(path, error);
  }
  return db;
}

async function openDatabase(path: string, driver: SqliteOpenOptions['driver']): Promise<SqliteDatabaseLike> {
  if (typeof path !== 'string' || path === '')
    throw new ShopError('SqliteInboxStore.open needs a file path.');
  const errors: unknown[] = [];
  // A driver that loads but cannot open the file says why, not "install a driver".
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
        // A native part built for another Node is a missing driver (node:sqlite takes over).
        if (!nativeLoadFailure(error)) throw await cannotOpen(path, error);
        errors.push(error);
        if (driver === 'better-sqlite3') throw missingDriver(errors);
      }
    }
  }
  let NodeDatabase: new (file: string) => SqliteDatabaseLike;
  try {
    // Built at run time: bundlers rewrite a literal `node:sqlite` to `sqlite`, which fails to load.
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

/** The open failure with its real cause, from the file system where the driver is vague. */
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
    // The nearest existing folder on the way up (or a file where a folder should be).
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
    // No node:fs: the driver's own words.
  }
  return new SqliteOpenError('cannot_open', `cannot open the SQLite database ${path}: ${cause}`, {
    cause: error,
  });
}

/** Whether a statement gives rows back (better-sqlite3's `reader`, else read from its text). */
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

export function busyOf(options: Pick<SqliteOpenOptions, 'busyTimeoutMs'>): number {
  const busy = options.busyTimeoutMs ?? SQLITE_BUSY_DEFAULT_MS;
  if (!Number.isInteger(busy) || busy < 0)
    throw new ShopError('busyTimeoutMs must be a whole number, 0 or more.');
  return busy;
}

function configure(db: SqliteDatabaseLike, options: SqliteOpenOptions): void {
  const busy = busyOf(options);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.exec(`PRAGMA busy_timeout = ${busy}`);
}

/** The {@link SqlDriver} over one SQLite connection: one statement at a time, `BEGIN IMMEDIATE`, lock waits between attempts. */
export class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly #db: SqliteDatabaseLike;
  readonly #owned: boolean;
  readonly #busyMs: number;
  readonly #queueAll: boolean;
  /** The connection's own busy_timeout, set back after each attempt. */
  readonly #ownBusy: number;
  readonly #statements = new Map<string, { statement: SqliteStatementLike; order: number[] | null }>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: SqliteDatabaseLike, options: SqliteDriverOptions = {}) {
    this.#db = db;
    this.#owned = options.owned ?? false;
    this.#busyMs = busyOf(options);
    this.#queueAll = (options.queue ?? 'all') === 'all';
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
    // Counted from the call: one queued behind a locked call fails at its own bound.
    const deadline = performance.now() + this.#busyMs;
    const step = () => this.#patiently(() => this.#run(sql, params), deadline);
    return this.#queueAll ? this.#exclusive(step) : step();
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
          // Already rolled back by SQLite.
        }
        throw error;
      }
    });
  }

  /** `step`, waiting for another process's lock between attempts until `deadline`. */
  #patiently<T>(step: () => T, deadline: number): Promise<T> {
    return patiently(() => this.#withoutBusyWait(step), deadline, this.#busyMs);
  }

  /** `step` with SQLite's own (blocking) busy wait off. */
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
      // Numbered parameters (`?1` used twice) become a plain `?` list, which both drivers take.
      const order: number[] = [];
      const text = sql.replace(/\?(\d+)/g, (_, index: string) => {
        order.push(Number(index) - 1);
        return '?';
      });
      prepared = { statement: this.#db.prepare(text), order: order.length > 0 ? order : null };
      if (this.#statements.size >= 500) this.#statements.clear();
      this.#statements.set(sql, prepared);
    }
    const { statement, order } = prepared;
    const values = (order ? order.map((index) => params[index]) : params).map(bindable);
    if (statement.reader === false) {
      return { rows: [], changes: Number(statement.run(...values).changes) };
    }
    if (statement.reader === true || returnsRows(sql)) {
      const rows = statement.all(...values) as Record<string, unknown>[];
      return { rows, changes: rows.length };
    }
    return { rows: [], changes: Number(statement.run(...values).changes) };
  }
}

function bindable(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
