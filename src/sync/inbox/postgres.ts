/**
 * The inbox in PostgreSQL: for receivers and workers on several machines.
 *
 * @module shop-mgmt/inbox/postgres
 */
// Workers lease with `FOR UPDATE SKIP LOCKED`; a handler's transaction holds its event's row lock.
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

/** Options of {@link PostgresInboxStore}; defaults in {@link POSTGRES_POOL_DEFAULTS}. */
export interface PostgresInboxOptions extends PostgresPoolSettings {
  /** @default 'shop_inbox' */
  table?: string;
}

/**
 * An inbox store in PostgreSQL. A Pool you pass is yours to end (give it an 'error' listener). While the
 * database is away calls reject with a {@link DatabaseUnavailableError}.
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
