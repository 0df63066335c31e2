/**
 * The inbox in PostgreSQL: for receivers and workers on several machines.
 *
 * @module shop-mgmt/inbox/postgres
 */
// `shop-mgmt/inbox/postgres`: over `pg` (an optional peer dependency, loaded only here) or a pg `Pool` the
// caller made. Workers lease with `FOR UPDATE SKIP LOCKED`; a handler's transaction holds its event's row
// lock, so no other worker takes the event while it runs, and its `tx` statements commit with the done mark.
import { ShopError } from '../../core/errors/shop-error.js';
import { type SqlDriver, SqlInboxStore, type SqlResult, type SqlSession, tableName } from './sql-store.js';

/** The part of a pg `PoolClient` used. */
export interface PgClientLike {
  /** Runs one statement on this connection, `$1, $2...` bound to `params`. */
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  /** Gives the connection back to its pool (an error or `true` makes the pool discard it). */
  release(error?: Error | boolean): void;
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

/** Options of {@link PostgresInboxStore}. */
export interface PostgresInboxOptions {
  /** The inbox table's name (the sync engine's tables can live in the same database). @default 'shop_inbox' */
  table?: string;
  /** Most connections {@link PostgresInboxStore.connect} opens. @default 10 */
  maxConnections?: number;
  /**
   * Longest a statement may run, in ms (Postgres's `statement_timeout` on connections this store opens),
   * so a stalled database fails a call instead of hanging it. @default 5000
   */
  statementTimeoutMs?: number;
}

/**
 * An inbox store in PostgreSQL. {@link PostgresInboxStore.connect} opens a pool from a connection string;
 * `new PostgresInboxStore(pool)` uses a `pg` Pool you made (you end it then).
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
    const pool = new Pool({
      connectionString,
      max: options.maxConnections ?? 10,
      statement_timeout: options.statementTimeoutMs ?? 5000,
      connectionTimeoutMillis: options.statementTimeoutMs ?? 5000,
    });
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

type PoolClass = new (config: Record<string, unknown>) => PgPoolLike;

class PgDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  readonly #pool: PgPoolLike;
  readonly #owned: boolean;

  constructor(pool: PgPoolLike, owned: boolean) {
    this.#pool = pool;
    this.#owned = owned;
  }

  async run(sql: string, params: readonly unknown[]): Promise<SqlResult> {
    return resultOf(await this.#pool.query(sql, params as unknown[]));
  }

  async transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work({
        run: async (sql, params) => resultOf(await client.query(sql, params as unknown[])),
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is gone: the server rolls back itself; the pool must not reuse it.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#pool.end();
  }
}

function resultOf(result: { rows: Record<string, unknown>[]; rowCount: number | null }): SqlResult {
  return { rows: result.rows ?? [], changes: result.rowCount ?? 0 };
}
