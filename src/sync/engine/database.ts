// The engine's view of its database: `?` placeholders in both dialects, over the drivers of src/sync/sql/.
import { ShopError } from '../../core/errors/shop-error.js';
import { questionMarks, type SqlDriver, type SqlSession } from '../sql/driver.js';

/** How long the engine waits for another process's SQLite write lock, in ms. */
const SQLITE_BUSY_MS = 10_000;

/** Statements inside or outside a transaction. Placeholders are `?`; Postgres gets `$1, $2, ...`. */
export interface SqlExecutor {
  /** Rows of a query (or of `... RETURNING`). */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** A database the sync engine writes: SQLite (better-sqlite3, else node:sqlite) or Postgres (pg). */
export interface SyncDatabase extends SqlExecutor {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `work` in one transaction. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Closes the connection (or pool). */
  close(): Promise<void>;
}

/** A database driver that is missing or a target that cannot be opened. */
export class SyncDatabaseError extends ShopError {
  override readonly name: string = 'SyncDatabaseError';
}

/** Opens a `postgres://` URL (pg pool) or a SQLite file path (better-sqlite3, else node:sqlite; WAL). */
export async function openSyncDatabase(target: string): Promise<SyncDatabase> {
  if (typeof target !== 'string' || target === '')
    throw new SyncDatabaseError('the sync database is a SQLite file path or a postgres:// URL');
  if (/^postgres(ql)?:\/\//i.test(target)) return openPostgres(target);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1];
  if (scheme !== undefined) {
    throw new SyncDatabaseError(
      `${scheme}:// is not a database the sync writes: give a SQLite file path or a postgres:// URL`,
    );
  }
  return openSqlite(target);
}

/** The engine's {@link SyncDatabase} over a driver of src/sync/sql/: `?` placeholders in both dialects. */
export function syncDatabaseOver(driver: SqlDriver): SyncDatabase {
  const text = questionMarks(driver.dialect);
  const over = (session: SqlSession): SqlExecutor => ({
    all: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await session.run(text(sql), params)).rows as T[],
    run: async (sql: string, params: readonly unknown[] = []) =>
      (await session.run(text(sql), params)).changes,
  });
  return {
    dialect: driver.dialect,
    ...over(driver),
    transaction: <T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> =>
      driver.transaction((session) => work(over(session))),
    close: () => driver.close(),
  };
}

async function openSqlite(file: string): Promise<SyncDatabase> {
  const { openSqliteDatabase, SqliteDriver, SqliteOpenError } = await import('../sql/sqlite.js');
  let handle: Awaited<ReturnType<typeof openSqliteDatabase>>;
  try {
    // The driver waits between attempts; SQLite's own wait would block the event loop.
    handle = await openSqliteDatabase(file, { busyTimeoutMs: 0 });
  } catch (error) {
    if (error instanceof SqliteOpenError && error.reason === 'cannot_open')
      throw new SyncDatabaseError(error.message, { cause: error });
    if (error instanceof SqliteOpenError)
      throw new SyncDatabaseError(
        'the sync engine needs better-sqlite3 for a SQLite file (npm install better-sqlite3), or Node 22.5+ with node:sqlite; or give a postgres:// URL',
        { cause: error },
      );
    throw new SyncDatabaseError(`cannot open the SQLite database ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // Another process's lock is waited for up to 10 s between attempts; transactions take turns, the engine's
  // own statements outside them run at once.
  return syncDatabaseOver(
    new SqliteDriver(handle, { owned: true, busyTimeoutMs: SQLITE_BUSY_MS, queue: 'transactions' }),
  );
}

async function openPostgres(url: string): Promise<SyncDatabase> {
  const { openPostgresPool, PgDriver, PgMissingError } = await import('../sql/postgres.js');
  try {
    return syncDatabaseOver(new PgDriver(await openPostgresPool(url), true));
  } catch (error) {
    if (!(error instanceof PgMissingError)) throw error;
    throw new SyncDatabaseError(
      `the sync engine needs the pg package for this database: npm install pg (${(error as Error).message})`,
      { cause: error },
    );
  }
}
