// Which worker syncs which shop on one PostgreSQL database: a lease and fencing token per shop, and a table
// of live workers (docs/many-shops.md). Lease times are the database's `now()`.
import { ShopError } from '../../core/errors/shop-error.js';
import { postgresPoolConfig, unavailableOr, watchPool } from '../sql/postgres.js';
import {
  LeaseLostError,
  type ShopLease,
  type ShopLeaseEvents,
  type ShopLeases,
  type SqlExecutorLike,
} from './lease-contract.js';

export type { ShopLease, ShopLeases };
export { LeaseLostError };

/** What a lease keeper tells: each shop gained or lost, and each failed round. */
export interface ShopLeasesOptions extends ShopLeaseEvents {
  /** A failed round (retried) or a callback that threw; never fatal. */
  onError?(error: unknown): void;
}

/** The write transaction given to {@link PostgresShopLeases.check}, in any of its three shapes. */
export type LeaseTransaction = SqlExecutorLike | PgTransactionLike | SqlSessionLike;

/** A `pg` client between BEGIN and COMMIT. */
export interface PgTransactionLike {
  /** Runs a statement. */
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** A SqlSession of the one SQL layer, inside its transaction. */
export interface SqlSessionLike {
  /** Runs a statement. */
  run(sql: string, params: readonly unknown[]): Promise<unknown>;
}

/** The part of a `pg` Pool the leases use. */
export interface LeasePool {
  /** Runs a statement. */
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Idle connections' errors: listened to, never fatal. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Closes the pool. */
  end(): Promise<void>;
}

/** Options of {@link PostgresShopLeases}. */
export type PostgresShopLeasesOptions = ShopLeasesOptions &
  ({ connectionString: string; pool?: undefined } | { pool: LeasePool; connectionString?: undefined }) & {
    /** Unique among running workers. @default host:pid:random */
    holder?: string;
    /** A lease's life without a heartbeat. @default 15000 */
    leaseMs?: number;
    /** @default a third of `leaseMs` */
    heartbeatMs?: number;
    /** The leases table; workers are in `<table>_workers`. @default 'sync_shop_leases' */
    table?: string;
  };

const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_TABLE = 'sync_shop_leases';
/** A lease this worker believes held ends this long before the database would end it (monotonic clock). */
const LOCAL_MARGIN_MS = 50;

const monotonic = (): number => Number(process.hrtime.bigint() / 1_000_000n);

interface Held {
  lease: ShopLease;
  /** Monotonic ms after which this worker gives the lease up unless a heartbeat confirmed it since. */
  until: number;
}

/** Shop leases in PostgreSQL: each heartbeat renews, then releases or claims shops toward a fair share. */
export class PostgresShopLeases implements ShopLeases {
  readonly holder: string;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  readonly #options: PostgresShopLeasesOptions;
  readonly #table: string;
  readonly #workers: string;
  #pool: LeasePool | undefined;
  readonly #ownPool: boolean;
  #shops: string[] = [];
  readonly #held = new Map<string, Held>();
  /** Releases under way. */
  readonly #releasing = new Set<Promise<unknown>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #round: Promise<void> | undefined;
  #running = false;

  constructor(options: PostgresShopLeasesOptions) {
    this.#options = options;
    const table = options.table ?? DEFAULT_TABLE;
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,50}$/.test(table))
      throw new ShopError(
        `table must be a plain SQL name (letters, digits, _), got ${JSON.stringify(table)}`,
      );
    this.#table = table;
    this.#workers = `${table}_workers`;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isInteger(this.leaseMs) || this.leaseMs < 500)
      throw new ShopError(`leaseMs must be a whole number of ms, 500 or more, got ${options.leaseMs}`);
    this.heartbeatMs = options.heartbeatMs ?? Math.floor(this.leaseMs / 3);
    if (!Number.isInteger(this.heartbeatMs) || this.heartbeatMs < 50 || this.heartbeatMs > this.leaseMs / 2)
      throw new ShopError(
        `heartbeatMs must be a whole number of ms from 50 to half the lease (${this.leaseMs / 2}), got ${options.heartbeatMs}`,
      );
    const holder =
      options.holder ??
      `${process.env.HOSTNAME ?? 'worker'}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
    if (typeof holder !== 'string' || holder === '' || holder.length > 200)
      throw new ShopError('holder must be a non-empty name of at most 200 characters');
    this.holder = holder;
    if (options.pool) {
      this.#pool = options.pool;
      this.#ownPool = false;
      watchPool(options.pool);
    } else {
      if (
        typeof options.connectionString !== 'string' ||
        !/^postgres(ql)?:\/\//i.test(options.connectionString)
      )
        throw new ShopError('shop leases need a postgres:// connectionString or a pg pool');
      this.#ownPool = true;
    }
  }

  held(): ReadonlyMap<string, ShopLease> {
    const now = monotonic();
    const out = new Map<string, ShopLease>();
    for (const [shop, entry] of this.#held) if (entry.until > now) out.set(shop, entry.lease);
    return out;
  }

  async start(shops: readonly string[]): Promise<void> {
    if (this.#running) throw new ShopError('these shop leases are already started');
    if (!Array.isArray(shops) || shops.some((shop) => typeof shop !== 'string' || shop === ''))
      throw new ShopError('shops must be a list of shop names');
    this.#shops = [...new Set(shops)].sort();
    const pool = await this.#connect();
    try {
      // One implicit transaction (simple protocol): the advisory lock keeps concurrent first starts apart.
      await pool.query(`SELECT pg_advisory_xact_lock(hashtext('shop-mgmt:${this.#table}'));
        CREATE TABLE IF NOT EXISTS ${this.#table} (
          shop TEXT PRIMARY KEY,
          holder TEXT,
          token BIGINT NOT NULL DEFAULT 0,
          expires_at TIMESTAMPTZ,
          acquired_at TIMESTAMPTZ
        );
        CREATE TABLE IF NOT EXISTS ${this.#workers} (
          holder TEXT PRIMARY KEY,
          expires_at TIMESTAMPTZ NOT NULL
        );`);
      await pool.query(
        `INSERT INTO ${this.#table} (shop) SELECT unnest($1::text[]) ON CONFLICT (shop) DO NOTHING`,
        [this.#shops],
      );
    } catch (error) {
      throw unavailableOr(error);
    }
    this.#running = true;
    await this.#tick();
  }

  /** check() without the lock, as a boolean (health lines). */
  async holds(tx: LeaseTransaction, lease: ShopLease): Promise<boolean> {
    const sql = `SELECT 1 AS ok FROM ${this.#table}
      WHERE shop = $1 AND holder = $2 AND token = $3 AND expires_at > clock_timestamp()`;
    try {
      return (await rowsOf(tx, sql, [lease.shop, lease.holder, lease.token])).length === 1;
    } catch (error) {
      throw unavailableOr(error);
    }
  }

  async check(tx: LeaseTransaction, lease: ShopLease): Promise<void> {
    // The database decides, by token and its own clock. FOR KEY SHARE: a takeover (FOR UPDATE) waits until
    // this transaction ends, so a token's writes commit before the next token exists, while the holder's
    // heartbeat is not held up. An idle-in-transaction limit keeps a stalled worker from pinning the shop.
    const sql = `SELECT set_config('idle_in_transaction_session_timeout', $4, true) AS ok FROM ${this.#table}
      WHERE shop = $1 AND holder = $2 AND token = $3 AND expires_at > clock_timestamp() FOR KEY SHARE`;
    const params = [lease.shop, lease.holder, lease.token, String(this.leaseMs)];
    let rows: unknown[];
    try {
      rows = await rowsOf(tx, sql, params);
    } catch (error) {
      throw unavailableOr(error);
    }
    if (rows.length === 1) return;
    this.#lose(lease.shop, lease.token, 'its token is no longer current');
    throw new LeaseLostError(
      lease.shop,
      `the lease on shop ${lease.shop} (token ${lease.token}) is no longer this worker's (another worker took it, or it expired): the write was refused`,
    );
  }

  async stop(): Promise<void> {
    if (!this.#running) {
      if (this.#ownPool) await this.#endPool();
      return;
    }
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#round;
    await Promise.allSettled([...this.#releasing]);
    const leases = [...this.#held.values()].map((entry) => entry.lease);
    for (const lease of leases) this.#lose(lease.shop, lease.token, 'stopped');
    try {
      const pool = await this.#connect();
      if (leases.length > 0) await this.#release(pool, leases);
      await pool.query(`DELETE FROM ${this.#workers} WHERE holder = $1`, [this.holder]);
    } catch (error) {
      // The database away: the leases expire by themselves within the lease time.
      this.#report(unavailableOr(error));
    }
    if (this.#ownPool) await this.#endPool();
  }

  async #connect(): Promise<LeasePool> {
    if (this.#pool) return this.#pool;
    const connectionString = this.#options.connectionString as string;
    let pg: { Pool: new (config: object) => LeasePool };
    try {
      const module = (await import(/* webpackIgnore: true */ 'pg')) as { default?: typeof pg };
      pg = (module.default ?? module) as typeof pg;
    } catch (error) {
      throw new ShopError(`shop leases need the pg package: npm install pg (${(error as Error).message})`, {
        cause: error,
      });
    }
    const pool = new pg.Pool({
      ...postgresPoolConfig(connectionString, {
        maxConnections: 2,
        statementTimeoutMs: Math.max(1_000, this.leaseMs),
        connectTimeoutMs: Math.max(1_000, this.heartbeatMs),
      }),
      application_name: 'shop-mgmt-leases',
    });
    // An idle connection the server ends (a restart, a terminated backend) must not end the process.
    watchPool(pool);
    this.#pool = pool;
    return pool;
  }

  async #endPool(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.end().catch(() => undefined);
  }

  /** Runs one round now, then schedules the next. */
  #tick(): Promise<void> {
    const round = this.#runRound().then(
      () => true,
      (error: unknown) => {
        this.#report(unavailableOr(error));
        return false;
      },
    );
    this.#round = round.then(() => undefined);
    return round.then((ok) => {
      if (!this.#running) return;
      // After a failure, the next try comes sooner: a lease must be renewed before it ends.
      const delay = ok ? this.heartbeatMs : Math.min(this.heartbeatMs, 250);
      this.#timer = setTimeout(() => void this.#tick(), delay);
    });
  }

  async #runRound(): Promise<void> {
    const pool = await this.#connect();
    const now0 = monotonic();
    for (const [shop, entry] of this.#held)
      if (entry.until <= now0)
        this.#lose(shop, entry.lease.token, 'no heartbeat was confirmed within the lease');

    const held = [...this.#held.values()].map((entry) => entry.lease);
    const sent = monotonic();
    const ms = `$2::bigint * interval '1 millisecond'`;
    const { rows } = await pool.query(
      `WITH me AS (
         INSERT INTO ${this.#workers} (holder, expires_at) VALUES ($1, now() + ${ms})
         ON CONFLICT (holder) DO UPDATE SET expires_at = EXCLUDED.expires_at
         RETURNING holder
       ), gone AS (
         DELETE FROM ${this.#workers} WHERE expires_at < now() - interval '1 hour'
       ), mine AS (
         SELECT l.shop FROM ${this.#table} l
         JOIN unnest($3::text[], $4::bigint[]) AS h(shop, token) ON l.shop = h.shop AND l.token = h.token
         WHERE l.holder = $1 AND l.expires_at > now()
         FOR NO KEY UPDATE OF l SKIP LOCKED
       ), renewed AS (
         UPDATE ${this.#table} l SET expires_at = now() + ${ms} FROM mine WHERE l.shop = mine.shop
         RETURNING l.shop
       )
       SELECT
         (SELECT coalesce(json_agg(w.holder ORDER BY w.holder), '[]'::json) FROM (
            SELECT holder FROM ${this.#workers}
            WHERE expires_at > now() + ($2::bigint - 2 * $5::bigint) * interval '1 millisecond' AND holder <> $1
            UNION ALL SELECT holder FROM me) w) AS workers,
         (SELECT coalesce(json_agg(shop), '[]'::json) FROM renewed) AS renewed,
         (SELECT coalesce(json_agg(json_build_array(shop, holder, token, expires_at > now())), '[]'::json)
            FROM ${this.#table} WHERE shop = ANY($3::text[])) AS seen`,
      [this.holder, this.leaseMs, held.map((l) => l.shop), held.map((l) => l.token), this.heartbeatMs],
    );
    const row = rows[0] as {
      workers: string[];
      renewed: string[];
      seen: [string, string | null, number, boolean][];
    };
    const renewed = new Set(row.renewed);
    const seen = new Map(row.seen.map((entry) => [entry[0], entry]));
    for (const lease of held) {
      const entry = this.#held.get(lease.shop);
      if (entry?.lease.token !== lease.token) continue;
      if (renewed.has(lease.shop)) {
        entry.until = sent + this.leaseMs - LOCAL_MARGIN_MS;
        continue;
      }
      const [, holder, token, live] = seen.get(lease.shop) ?? [lease.shop, null, 0, false];
      // Locked by this worker's own write transaction (its check()): still ours, renewed next round.
      if (holder === this.holder && Number(token) === lease.token && live) continue;
      this.#lose(
        lease.shop,
        lease.token,
        holder !== null && (holder !== this.holder || Number(token) !== lease.token)
          ? `taken over by ${holder} (token ${token})`
          : 'the lease expired before a heartbeat renewed it',
      );
    }
    if (!this.#running) return;

    // The fair share: shops divided among live workers, the remainder to the first by name. Live means heard
    // from within two heartbeats, not the whole lease, so a killed worker's row stops shrinking every share
    // (its leases still hold its shops until they expire).
    const workers = row.workers;
    const rank = Math.max(0, workers.indexOf(this.holder));
    const total = this.#shops.length;
    const target = Math.floor(total / workers.length) + (rank < total % workers.length ? 1 : 0);
    const holding = [...this.#held.values()];
    if (holding.length > target) {
      const extras = holding
        .sort((a, b) => b.lease.token - a.lease.token)
        .slice(0, holding.length - target)
        .map((entry) => entry.lease);
      for (const lease of extras) {
        const done = this.#lose(
          lease.shop,
          lease.token,
          `released to rebalance (${workers.length} workers, share ${target})`,
        );
        // Released once the fleet is done with the shop; the lease would end by itself anyway.
        const released = within(done, this.leaseMs)
          .then(() => this.#release(pool, [lease]))
          .catch((error: unknown) => this.#report(unavailableOr(error)))
          .finally(() => this.#releasing.delete(released));
        this.#releasing.add(released);
      }
    } else if (holding.length < target) {
      const claimedAt = monotonic();
      const { rows: claimed } = await pool.query(
        `WITH free AS (
           SELECT shop, holder IS NULL AS released FROM ${this.#table}
           WHERE shop = ANY($3::text[]) AND (holder IS NULL OR expires_at IS NULL OR expires_at <= now())
           ORDER BY random() LIMIT $4
           FOR UPDATE SKIP LOCKED
         )
         UPDATE ${this.#table} l
         SET holder = $1, token = l.token + 1, expires_at = now() + ${ms}, acquired_at = now()
         FROM free WHERE l.shop = free.shop
         RETURNING l.shop, l.token, free.released`,
        [this.holder, this.leaseMs, this.#shops, target - holding.length],
      );
      for (const found of claimed) {
        const shop = String(found.shop);
        const lease: ShopLease = {
          shop,
          token: Number(found.token),
          holder: this.holder,
          handedOver: found.released === true,
        };
        const before = this.#held.get(shop);
        if (before) this.#lose(shop, before.lease.token, 'the lease expired before a heartbeat renewed it');
        this.#held.set(shop, { lease, until: claimedAt + this.leaseMs - LOCAL_MARGIN_MS });
        this.#call(() => this.#options.onAcquired?.(lease));
      }
    }
  }

  async #release(pool: LeasePool, leases: readonly ShopLease[]): Promise<void> {
    await pool.query(
      `UPDATE ${this.#table} l SET holder = NULL, expires_at = NULL
       FROM unnest($2::text[], $3::bigint[]) AS h(shop, token)
       WHERE l.shop = h.shop AND l.token = h.token AND l.holder = $1`,
      [this.holder, leases.map((l) => l.shop), leases.map((l) => l.token)],
    );
  }

  #lose(shop: string, token: number, reason: string): Promise<unknown> {
    const entry = this.#held.get(shop);
    if (!entry || entry.lease.token !== token) return Promise.resolve();
    this.#held.delete(shop);
    return Promise.resolve(this.#call(() => this.#options.onLost?.(shop, reason))).catch((error: unknown) =>
      this.#report(error),
    );
  }

  #call<T>(callback: () => T): T | undefined {
    try {
      return callback();
    } catch (error) {
      this.#report(error);
      return undefined;
    }
  }

  #report(error: unknown): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // A reporter that throws must not stop the heartbeat.
    }
  }
}

/** The rows `sql` returns on `tx`, whichever executor shape it has. */
async function rowsOf(tx: LeaseTransaction, sql: string, params: unknown[]): Promise<unknown[]> {
  if ('query' in tx && typeof tx.query === 'function') return extractRows(await tx.query(sql, params));
  if ('all' in tx && typeof tx.all === 'function') return tx.all(sql, params);
  if ('run' in tx && typeof tx.run === 'function') return extractRows(await tx.run(sql, params));
  throw new ShopError('check() needs the write transaction: a pg client, or an executor with all() or run()');
}

function extractRows(result: unknown): unknown[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows)) throw new ShopError('the write transaction answered without rows');
  return rows;
}

/** `promise` settled, or `ms` passed. */
function within(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, elapsed]).finally(() => clearTimeout(timer));
}
