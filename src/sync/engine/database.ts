import { ShopError } from '../../core/errors/shop-error.js';
import type { SqliteDatabaseLike, SqliteStatementLike } from '../inbox/sqlite.js';
import { inTransaction, postgresPoolConfig, unavailableOr, watchPool } from '../postgres-pool.js';
import { patiently } from '../sqlite-busy.js';

/** How long the engine waits for another process's SQLite write lock, in ms. */
const SQLITE_BUSY_MS = 10_000;

/** Statements inside or outside a transaction. Placeholders are `?`; Postgres gets `$1, $2, ...`. */
export interface SqlExecutor {
  /** Rows of a query (or of `... RETURNING`). */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement; resolves with the rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** A database the sync engine writes: SQLite (better-sqlite3, else node:sqlite) or Postgres (pg). */
export interface SyncDatabase extends SqlExecutor {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Closes the connection (or pool). */
  close(): Promise<void>;
}

/** A database driver that is missing or a target that cannot be opened. */
export class SyncDatabaseError extends ShopError {
  override readonly name: string = 'SyncDatabaseError';
}

/**
 * Opens `target`: a `postgres://` / `postgresql://` URL (pg, a pool), else a SQLite file path (better-sqlite3,
 * else Node's node:sqlite; WAL journal). Each driver is an optional peer dependency, imported here only when its database is used.
 */
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

async function load<T>(name: string): Promise<T> {
  try {
    const module = (await import(/* webpackIgnore: true */ name)) as { default?: T };
    return (module.default ?? module) as T;
  } catch (error) {
    throw new SyncDatabaseError(
      `the sync engine needs the ${name} package for this database: npm install ${name} (${(error as Error).message})`,
    );
  }
}

async function openSqlite(file: string): Promise<SyncDatabase> {
  // The inbox's opener: better-sqlite3 where it loads, else Node's own node:sqlite (Node 22.5+), WAL mode.
  const { openSqliteDatabase, returnsRows, SqliteOpenError } = await import('../inbox/sqlite.js');
  let handle: SqliteDatabaseLike;
  try {
    // No wait inside SQLite, which would block the event loop: `patiently` waits between attempts.
    handle = await openSqliteDatabase(file, { busyTimeoutMs: 0 });
  } catch (error) {
    // A missing driver and a path that cannot be opened are told apart: each message says what to fix.
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
  const statements = new Map<string, SqliteStatementLike>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = handle.prepare(sql);
      if (statements.size > 500) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };
  const bind = (params: readonly unknown[]) =>
    params.map((value) =>
      value === undefined ? null : typeof value === 'boolean' ? (value ? 1 : 0) : value,
    );
  // Another process's write lock is waited for up to 10 s, between attempts: the process (a webhook
  // receiver beside the engine, the inbox's own connection) runs on meanwhile.
  const patient = <T>(step: () => T) => patiently(step, performance.now() + SQLITE_BUSY_MS, SQLITE_BUSY_MS);
  const executor: SqlExecutor = {
    all: <T>(sql: string, params: readonly unknown[] = []) =>
      patient(() => prepared(sql).all(...bind(params)) as T[]),
    run: (sql: string, params: readonly unknown[] = []) =>
      patient(() => {
        const statement = prepared(sql);
        const reader = statement.reader ?? returnsRows(sql);
        if (reader) return statement.all(...bind(params)).length;
        return Number(statement.run(...bind(params)).changes);
      }),
  };
  // better-sqlite3 is synchronous: one transaction at a time, the others wait their turn.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    dialect: 'sqlite',
    ...executor,
    transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const next = queue.then(async () => {
        await patient(() => handle.exec('BEGIN IMMEDIATE'));
        try {
          const result = await work(executor);
          handle.exec('COMMIT');
          return result;
        } catch (error) {
          handle.exec('ROLLBACK');
          throw error;
        }
      });
      queue = next.catch(() => undefined);
      return next;
    },
    close: async () => {
      await queue;
      handle.close();
    },
  };
}

interface PgClient {
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}
interface PgPool {
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}

async function openPostgres(url: string): Promise<SyncDatabase> {
  const pg = await load<{ Pool: new (options: object) => PgPool }>('pg');
  // The inbox's settings (src/sync/postgres-pool.ts): one pool size and statement timeout for both.
  const pool = new pg.Pool(postgresPoolConfig(url));
  // An idle connection the server drops must not take the process down; the next query reconnects.
  watchPool(pool);
  const numbered = new Map<string, string>();
  const toPg = (sql: string) => {
    let text = numbered.get(sql);
    if (text === undefined) {
      let index = 0;
      text = sql.replace(/\?/g, () => `$${++index}`);
      numbered.set(sql, text);
    }
    return text;
  };
  const query = async (target: { query: PgPool['query'] }, sql: string, params: readonly unknown[]) => {
    try {
      return await target.query(toPg(sql), [...params]);
    } catch (error) {
      // A dead connection or a database away: a DatabaseUnavailableError (nothing committed, try again).
      throw unavailableOr(error);
    }
  };
  const over = (target: { query: PgPool['query'] }): SqlExecutor => ({
    all: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await query(target, sql, params)).rows as T[],
    run: async (sql: string, params: readonly unknown[] = []) =>
      (await query(target, sql, params)).rowCount ?? 0,
  });
  return {
    dialect: 'postgres',
    ...over(pool),
    transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return inTransaction(pool, (client) => work(over(client)));
    },
    close: () => pool.end(),
  };
}
