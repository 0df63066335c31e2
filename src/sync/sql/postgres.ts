// PostgreSQL over `pg` or the caller's Pool. Every pool and checked-out connection has an 'error' listener
// (an unheard one ends the process).
import { ShopError } from '../../core/errors/shop-error.js';
import { DatabaseUnavailableError } from '../database-unavailable.js';
import type { SqlDriver, SqlResult, SqlSession } from './driver.js';

/** How the inbox and the sync engine connect to PostgreSQL. */
export interface PostgresPoolSettings {
  /** @default 10 */
  readonly maxConnections?: number;
  /** `statement_timeout` in ms. @default 30000 */
  readonly statementTimeoutMs?: number;
  /** @default 5000 */
  readonly connectTimeoutMs?: number;
}

/** The defaults of {@link PostgresPoolSettings}. */
export const POSTGRES_POOL_DEFAULTS = Object.freeze({
  maxConnections: 10,
  statementTimeoutMs: 30_000,
  connectTimeoutMs: 5_000,
});

/** Ms past `statement_timeout` the client waits before it drops the connection. */
const CLIENT_GRACE_MS = 2_000;

/** The `pg` Pool config for `connectionString` with `settings`. */
export function postgresPoolConfig(
  connectionString: string,
  settings: PostgresPoolSettings = {},
): Record<string, unknown> {
  const max = whole('maxConnections', settings.maxConnections ?? POSTGRES_POOL_DEFAULTS.maxConnections);
  const statement = whole(
    'statementTimeoutMs',
    settings.statementTimeoutMs ?? POSTGRES_POOL_DEFAULTS.statementTimeoutMs,
  );
  const connect = whole(
    'connectTimeoutMs',
    settings.connectTimeoutMs ?? POSTGRES_POOL_DEFAULTS.connectTimeoutMs,
  );
  return {
    connectionString,
    max,
    statement_timeout: statement,
    query_timeout: statement + CLIENT_GRACE_MS,
    connectionTimeoutMillis: connect,
    // A peer that vanished without closing is noticed on an idle connection.
    keepAlive: true,
  };
}

/** The part of a `pg` Pool or Client that emits connection errors. */
export interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/** Listens for idle connections' errors (the pool drops them); without it, one ending kills the process. */
export function watchPool(pool: ErrorEmitter): void {
  pool.on('error', () => undefined);
}

/** The part of a pg `PoolClient` used. */
export interface PgClientLike {
  /** Runs a statement. */
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  /** An error or `true` discards the connection. */
  release(error?: Error | boolean): void;
  /** Connection errors, listened to while a transaction holds it. */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Drops the listener of {@link on}. */
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a pg `Pool` used. */
export interface PgPoolLike {
  /** Runs a statement on any free connection. */
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  /** Checks out a connection; it must be released. */
  connect(): Promise<PgClientLike>;
  /** Closes the pool. */
  end(): Promise<void>;
}

type PoolClass = new (config: Record<string, unknown>) => PgPoolLike & ErrorEmitter;

/** `pg` is not installed (or has no Pool): each caller says what needs it. */
export class PgMissingError extends ShopError {
  override readonly name: string = 'PgMissingError';
}

/** Loads `pg` and opens a watched pool; rejects with {@link PgMissingError} without `pg`. */
export async function openPostgresPool(
  connectionString: string,
  settings: PostgresPoolSettings = {},
): Promise<PgPoolLike> {
  const config = postgresPoolConfig(connectionString, settings);
  let pg: { default?: { Pool?: PoolClass }; Pool?: PoolClass };
  try {
    pg = (await import(/* webpackIgnore: true */ 'pg' as string)) as typeof pg;
  } catch (error) {
    throw new PgMissingError(`pg does not load: ${(error as Error).message}`, { cause: error });
  }
  const Pool = pg.Pool ?? pg.default?.Pool;
  if (!Pool) throw new PgMissingError('The pg module has no Pool.');
  const pool = new Pool(config);
  // An idle connection the server ends emits 'error' on the pool: dropped, not the process's end.
  watchPool(pool);
  return pool;
}

/** The {@link SqlDriver} over a pg Pool; connection failures reject as DatabaseUnavailableError. */
export class PgDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  readonly #pool: PgPoolLike;
  readonly #owned: boolean;

  /** @param pool a pg Pool; {@link close} ends it only when `owned`. */
  constructor(pool: PgPoolLike, owned: boolean) {
    this.#pool = pool;
    this.#owned = owned;
  }

  run(sql: string, params: readonly unknown[]): Promise<SqlResult> {
    return runOn(this.#pool, sql, params);
  }

  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return inTransaction(this.#pool, (client) => work({ run: (sql, params) => runOn(client, sql, params) }));
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }
}

async function runOn(
  target: Pick<PgPoolLike, 'query'>,
  sql: string,
  params: readonly unknown[],
): Promise<SqlResult> {
  try {
    const result = await target.query(sql, params as unknown[]);
    return { rows: result.rows ?? [], changes: result.rowCount ?? 0 };
  } catch (error) {
    // A dead connection or a database away: a DatabaseUnavailableError (nothing committed, try again).
    throw unavailableOr(error);
  }
}

/** Runs `work` in one transaction on a checked-out connection; a failed connection is given back broken. */
export async function inTransaction<C extends PgClientLike, T>(
  pool: { connect(): Promise<C> },
  work: (client: C) => Promise<T>,
): Promise<T> {
  let client: C;
  try {
    client = await pool.connect();
  } catch (error) {
    throw unavailableOr(error);
  }
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on?.('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (broken === undefined && isConnectionFailure(error)) broken = asError(error);
    if (broken === undefined) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is gone: the server rolls back by itself; the pool must not lend it again.
        broken = asError(rollbackError);
      }
    }
    throw unavailableOr(error);
  } finally {
    client.removeListener?.('error', onError);
    client.release(broken);
  }
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // SQLSTATE: the server is shutting down or starting, ended this session, or refused one more.
  '57P01', // admin_shutdown: a restart, a failover, pg_terminate_backend
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '57P05', // idle_session_timeout
  '25P03', // idle_in_transaction_session_timeout
  '57014', // query_canceled: statement_timeout
  '53300', // too_many_connections
]);

const CONNECTION_MESSAGES =
  /Connection terminated|Query read timeout|timeout exceeded when trying to connect|not queryable|terminating connection|the database system is (starting up|shutting down|in recovery)/i;

/** True when `error` says the database is away (retry later), not that the statement is wrong. */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || /^08/.test(code))) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/** `error` as a {@link DatabaseUnavailableError} when it is a connection failure, else unchanged. */
export function unavailableOr(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isConnectionFailure(error)) return error;
  const reason = (error as Error).message || String((error as { code?: unknown }).code);
  return new DatabaseUnavailableError(
    `PostgreSQL is unavailable (${reason}); nothing of this call was committed, try it again.`,
    { cause: error },
  );
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

function whole(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ShopError(`${name} must be a whole number, 1 or more, got ${value}.`);
  }
  return value;
}
