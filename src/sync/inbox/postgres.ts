/**
 * The inbox in PostgreSQL: for receivers and workers on several machines.
 *
 * @module shop-mgmt/inbox/postgres
 */
// `shop-mgmt/inbox/postgres`: over `pg` (an optional peer dependency, loaded only by src/sync/sql/postgres.ts,
// which the sync engine opens its Postgres with too: one pool config, one statement timeout) or a pg `Pool`
// the caller made. Workers lease with `FOR UPDATE SKIP LOCKED`; a handler's transaction holds its event's row
// lock, so no other worker takes the event while it runs, and its `tx` statements commit with the done mark.
// The pool it opens and every connection a transaction holds have an 'error' listener: a Postgres restart, a
// failover, a terminated backend or `idle_session_timeout` fails the calls in flight with a
// DatabaseUnavailableError (the receiver answers 503, the worker retries) and never the process.
import { ShopError } from '../../core/errors/shop-error.js';
import { DatabaseUnavailableError } from '../database-unavailable.js';
import {
  openPostgresPool,
  type PgClientLike,
  PgDriver,
  PgMissingError,
  type PgPoolLike,
  POSTGRES_POOL_DEFAULTS,
  type PostgresPoolSettings,
} from '../sql/postgres.js';
import { SqlInboxStore, tableName } from './sql-store.js';

export {
  DatabaseUnavailableError,
  type PgClientLike,
  type PgPoolLike,
  POSTGRES_POOL_DEFAULTS,
  type PostgresPoolSettings,
};

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
    let pool: PgPoolLike;
    try {
      pool = await openPostgresPool(connectionString, options);
    } catch (error) {
      if (!(error instanceof PgMissingError)) throw error;
      throw new ShopError('The Postgres inbox needs pg (npm install pg).', { cause: error });
    }
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
