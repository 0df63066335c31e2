/**
 * The inbox in PostgreSQL: for receivers and workers on several machines.
 *
 * @module shop-mgmt/inbox/postgres
 */
// `shop-mgmt/inbox/postgres`: over `pg` (an optional peer dependency, loaded only here) or a pg `Pool` the
// caller made. Workers lease with `FOR UPDATE SKIP LOCKED`; a handler's transaction holds its event's row
// lock, so no other worker takes the event while it runs, and its `tx` statements commit with the done mark.
// The pool it opens and every connection a transaction holds have an 'error' listener: a Postgres restart, a
// failover, a terminated backend or `idle_session_timeout` fails the calls in flight with a
// DatabaseUnavailableError (the receiver answers 503, the worker retries) and never the process.
import { ShopError } from '../../core/errors/shop-error.js';
import { DatabaseUnavailableError } from '../database-unavailable.js';
import {
  inTransaction,
  POSTGRES_POOL_DEFAULTS,
  type PostgresPoolSettings,
  postgresPoolConfig,
  unavailableOr,
  watchPool,
} from '../postgres-pool.js';
import { type SqlDriver, SqlInboxStore, type SqlResult, type SqlSession, tableName } from './sql-store.js';

export { DatabaseUnavailableError, POSTGRES_POOL_DEFAULTS, type PostgresPoolSettings };

/** The part of a pg `PoolClient` used. */
export interface PgClientLike {
  /** Runs one statement on this connection, `$1, $2...` bound to `params`. */
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  /** Gives the connection back to its pool (an error or `true` makes the pool discard it). */
  release(error?: Error | boolean): void;
  /** pg's connection errors (a server that ends the session): listened to while a transaction holds it. */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Drops the listener of {@link on} when the transaction gives the connection back. */
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a pg `Pool` used. */
export interface PgPoolLike {
  /** Runs one statement on any free connection, `$1, $2...` bound to `params`. */
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  /** Checks out a connection for a transaction; it must be released. */
  connect(): Promise<PgClientLike>;
  /** Closes every connection of the pool. */
  end(): Promise<void>;
}

/**
 * Options of {@link PostgresInboxStore}. The connection settings are the sync engine's too
 * ({@link POSTGRES_POOL_DEFAULTS}: 10 connections, 30 s statement timeout, 5 s to connect).
 */
export interface PostgresInboxOptions extends PostgresPoolSettings {
  /** The inbox table's name (the sync engine's tables can live in the same database). @default 'shop_inbox' */
  table?: string;
}

/**
 * An inbox store in PostgreSQL. {@link PostgresInboxStore.connect} opens a pool from a connection string;
 * `new PostgresInboxStore(pool)` uses a `pg` Pool you made (you end it then, and give it an 'error'
 * listener: pg ends the process on an idle connection's error nobody listens to).
 *
 * While the database is away (restarting, failing over, a backend terminated) calls reject with a
 * {@link DatabaseUnavailableError}: the webhook receiver answers 503 and the worker retries; the pool
 * connects afresh once the database is back.
 */
export class PostgresInboxStore extends SqlInboxStore {
  /** Loads `pg` and opens a pool to `connectionString`. */
  static async connect(
    connectionString: string,
    options: PostgresInboxOptions = {},
  ): Promise<PostgresInboxStore> {
    if (typeof connectionString !== 'string' || connectionString === '') {
      throw new ShopError('PostgresInboxStore.connect needs a connection string (postgres://...).');
    }
    let pg: { default?: { Pool: PoolClass }; Pool?: PoolClass };
    try {
      pg = (await import(/* webpackIgnore: true */ 'pg' as string)) as typeof pg;
    } catch (error) {
      throw new ShopError('The Postgres inbox needs pg (npm install pg).', { cause: error });
    }
    const Pool = pg.Pool ?? pg.default?.Pool;
    if (!Pool) throw new ShopError('The pg module has no Pool.');
    const pool = new Pool(postgresPoolConfig(connectionString, options));
    // An idle connection the server ends (a restart, pg_terminate_backend, idle_session_timeout) emits
    // 'error' on the pool: dropped, and the next call connects afresh, instead of the process ending.
    watchPool(pool);
    return new PostgresInboxStore(pool, options, true);
  }

  /** @param pool a `pg` Pool; the caller ends it unless `owned`. */
  constructor(pool: PgPoolLike, options: Pick<PostgresInboxOptions, 'table'> = {}, owned = false) {
    if (typeof pool?.query !== 'function' || typeof pool.connect !== 'function') {
      throw new ShopError('PostgresInboxStore needs a pg Pool.');
    }
    super(new PgDriver(pool, owned), tableName(options.table));
  }
}

type PoolClass = new (
  config: Record<string, unknown>,
) => PgPoolLike & { on(event: 'error', listener: (error: Error) => void): unknown };

class PgDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  readonly #pool: PgPoolLike;
  readonly #owned: boolean;

  constructor(pool: PgPoolLike, owned: boolean) {
    this.#pool = pool;
    this.#owned = owned;
  }

  async run(sql: string, params: readonly unknown[]): Promise<SqlResult> {
    try {
      return resultOf(await this.#pool.query(sql, params as unknown[]));
    } catch (error) {
      throw unavailableOr(error);
    }
  }

  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return inTransaction(this.#pool, (client) =>
      work({
        run: async (sql, params) => {
          try {
            return resultOf(await client.query(sql, params as unknown[]));
          } catch (error) {
            throw unavailableOr(error);
          }
        },
      }),
    );
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }
}

function resultOf(result: { rows: Record<string, unknown>[]; rowCount: number | null }): SqlResult {
  return { rows: result.rows ?? [], changes: result.rowCount ?? 0 };
}
