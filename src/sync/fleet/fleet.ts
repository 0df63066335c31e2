// Many shops in one process: a ShopSync per shop on one database and one timer, each paced on its own.
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import { ShopClient } from '../../client.js';
import {
  AuthenticationError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  ShopApiError,
} from '../../core/errors/api-errors.js';
import { ERROR_CLASS, ShopError } from '../../core/errors/shop-error.js';
import { ConnectionError, TimeoutError } from '../../core/errors/transport-errors.js';
import type { ShopHooks } from '../../core/observe/hooks.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../core/rate-limit/rate-limit-store.js';
import { redact } from '../../internal/redact.js';
import { DatabaseUnavailableError } from '../database-unavailable.js';
import type { SyncEvent } from '../engine/apply-event.js';
import { openSyncDatabase, type SqlExecutor, type SyncDatabase } from '../engine/database.js';
import { ShopSync, type SyncGap } from '../engine/shop-sync.js';
import { migrate } from '../engine/store.js';
import {
  type DeadLetterQuery,
  type FleetDeadLetter,
  type FleetReplayRequest,
  pruneApplied,
  readDeadLetters,
  replayDeadLetters,
} from './dead-letters.js';
import { type FleetEntrance, fleetEntrance } from './entrance.js';
import {
  readStatus,
  type ShopReason,
  type ShopState,
  type ShopStatus,
  setupFleetTables,
  writeHealth,
} from './health.js';
import { LeaseLostError, type ShopLease, type ShopLeaseEvents, type ShopLeases } from './lease-contract.js';
import { LocalShopLeases } from './local-leases.js';
import { loadShops, type RegisteredShop, type ShopSource } from './registry.js';

/** How the fleet backs off a shop in trouble, in ms. */
export interface FleetRetryOptions {
  /** Doubled each time, to `maxMs`. @default 1000 */
  readonly baseMs?: number;
  /** @default 300000 */
  readonly maxMs?: number;
  /** Wait after a 401 (a rotated key is read then). @default 300000 */
  readonly pausedMs?: number;
}

/** How long the fleet keeps applied deliveries in `sync_shop_inbox`. */
export interface FleetRetentionOptions {
  /** @default 30 days, the feed's */
  readonly doneMs?: number;
}

/** Options of {@link ShopFleet}. */
export interface ShopFleetOptions {
  /** What `loadShops` returns, or a source it takes. */
  readonly shops: readonly RegisteredShop[] | ShopSource;
  /** A SQLite path, a `postgres://` URL, or an `openSyncDatabase` handle, shared by every shop. */
  readonly db: string | SyncDatabase;
  /** The webhook entrance (a port, or your `http.Server`); deliveries go to `/webhooks/<shop>`. */
  readonly listen?: number | Server;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** Pass the partner's own so their traffic and the sync share each shop's limit. @default in memory */
  readonly store?: RateLimitStore;
  /** Who syncs which shop when several workers share one database. @default every shop is ours */
  readonly leases?: (events: ShopLeaseEvents) => ShopLeases;
  /** @default 30 */
  readonly intervalSeconds?: number;
  /** Minutes between re-reads of each shop's lists. @default 60 */
  readonly refreshMinutes?: number;
  /** Back-off of a shop in trouble. */
  readonly retry?: FleetRetryOptions;
  /** Failed applies before a delivery is dead (a database away or a lost lease is no attempt). @default 10 */
  readonly maxAttempts?: number;
  /** Applied deliveries past it are pruned hourly; dead ones stay. */
  readonly retention?: FleetRetentionOptions;
  /** Per-shop client settings. */
  readonly client?: { readonly timeout?: number; readonly maxRetries?: number; readonly hooks?: ShopHooks };
  /** 1 to 200. @default 200 */
  readonly pageSize?: number;
  /** Told of each shop's state change. */
  readonly onChange?: (status: FleetShopChange) => void;
  /** Told the entrance's address once it listens. */
  readonly onListening?: (url: string) => void;
  /** Told of each gap a shop's engine reports. */
  readonly onGap?: (shop: string, gap: SyncGap) => void;
  /** Told of a `FleetDeliveryDeadError`, a `FleetPruneError`, or a health row not written (line `stale`). */
  readonly onError?: (error: unknown, shop: string | null) => void;
}

/** A shop's state as it changes. */
export interface FleetShopChange {
  readonly shop: string;
  readonly state: ShopState;
  readonly reason: ShopReason | null;
  readonly error: string | null;
}

/** What `runOnce` did for one shop. */
export interface FleetShopResult {
  readonly shop: string;
  readonly state: ShopState;
  readonly reason: ShopReason | null;
  readonly rows: number;
  readonly written: number;
  readonly skipped: readonly string[];
  readonly error: string | null;
}

/** One shop's engine and figures, made on its first pass. */
interface ShopRuntime {
  readonly shop: RegisteredShop;
  lease: ShopLease | null;
  sync: ShopSync | null;
  backfilled: boolean;
  running: Promise<void> | null;
  /** performance.now() of the next feed read (Infinity: none). */
  feedDue: number;
  drainDue: number;
  refreshDue: number;
  pruneDue: number;
  failures: number;
  state: ShopState;
  reason: ShopReason | null;
  lastError: string | null;
  lastErrorAt: string | null;
  lastSuccessAt: string | null;
  feedReadAt: string | null;
  skipped: readonly string[];
  /** Start times (ms) of the calls of the last minute. */
  calls: number[];
  /** This worker's last call of the shop (performance.now). */
  lastCallAt: number | null;
  /** Held, its pace not read yet (#pace). */
  pacing: boolean;
  limit: number | null;
  /** 402/403 answers seen in the pass under way. */
  refused: { payment: boolean; permission: boolean };
  /** Why the last health-row write failed. */
  healthError: string | null;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PRUNE_EVERY_MS = 60 * MINUTE;
const PRUNE_BATCH = 1000;

/**
 * Keeps every shop of a registry in one database, concurrently, from one process. See docs/many-shops.md.
 * @example
 * const fleet = new ShopFleet({ shops: await loadShops('./shops.json'), db: 'postgres://localhost/shops', listen: 3000 });
 * await fleet.run(); // until fleet.stop()
 */
export class ShopFleet {
  readonly #options: ShopFleetOptions;
  readonly #runtimes = new Map<string, ShopRuntime>();
  readonly #store: RateLimitStore;
  readonly #retry: Required<FleetRetryOptions>;
  readonly #intervalMs: number;
  readonly #refreshMs: number;
  readonly #maxAttempts: number;
  readonly #doneMs: number;
  #db: SyncDatabase | null = null;
  #ready: Promise<void> | null = null;
  #leases: ShopLeases | null = null;
  #entrance: FleetEntrance | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopping = false;
  #running: Promise<void> | null = null;
  #wake: (() => void) | null = null;

  constructor(options: ShopFleetOptions) {
    if (!options?.shops) throw new ShopError('ShopFleet needs { shops, db }: shops is missing');
    if (!options.db) throw new ShopError('ShopFleet needs { shops, db }: db is missing');
    this.#options = options;
    this.#store = options.store ?? new MemoryRateLimitStore();
    this.#retry = {
      baseMs: options.retry?.baseMs ?? 1000,
      maxMs: options.retry?.maxMs ?? 300_000,
      pausedMs: options.retry?.pausedMs ?? 300_000,
    };
    this.#intervalMs = (options.intervalSeconds ?? 30) * 1000;
    this.#refreshMs = (options.refreshMinutes ?? 60) * MINUTE;
    this.#maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 10));
    this.#doneMs = options.retention?.doneMs ?? 30 * DAY;
    if (!Number.isFinite(this.#doneMs) || this.#doneMs < 0)
      throw new ShopError(`retention.doneMs must be a number of ms from 0, got ${this.#doneMs}`);
  }

  /** The entrance's address once `run()` listens. */
  get url(): string | null {
    return this.#entrance?.url ?? null;
  }

  /** The shared database, opened and migrated on first use. */
  async database(): Promise<SyncDatabase> {
    await this.#setup();
    return this.#db!;
  }

  /** Backfills and catches up every held shop once, concurrently; a failure stays in its own result. */
  async runOnce(): Promise<FleetShopResult[]> {
    await this.#setup();
    await this.#startLeases();
    const held = [...this.#runtimes.values()].filter((runtime) => runtime.lease);
    return Promise.all(held.map((runtime) => this.#once(runtime)));
  }

  /** Keeps every held shop current until `stop()`. */
  run(): Promise<void> {
    this.#running ??= this.#live();
    return this.#running;
  }

  /** Every shop's health line (from `sync_shops`). */
  async status(): Promise<ShopStatus[]> {
    await this.#setup();
    return readStatus(this.#db!, Date.now(), [...this.#runtimes.keys()]).then((rows) =>
      rows.map((row) => {
        const runtime = this.#runtimes.get(row.shop);
        if (!runtime) return row;
        return {
          ...row,
          callsLastMinute: this.#callsLastMinute(runtime),
          callsCap: this.#cap(runtime),
          // Its last write failed.
          stale: row.stale || runtime.healthError !== null,
        };
      }),
    );
  }

  /** The dead deliveries, by shop, oldest first. */
  async deadLetters(query: DeadLetterQuery = {}): Promise<FleetDeadLetter[]> {
    await this.#setup();
    return readDeadLetters(this.#db!, query);
  }

  /** Resets dead letters to pending and wakes the shop; its lease holder applies them. */
  async replay(request: FleetReplayRequest): Promise<string[]> {
    await this.#setup();
    const runtime = this.#runtimes.get(request?.shop);
    if (!runtime) throw new ShopError(`no shop ${String(request?.shop)} in this fleet's registry`);
    const replayed = await replayDeadLetters(this.#db!, request);
    if (replayed.length > 0 && runtime.backfilled && runtime.failures === 0) {
      runtime.drainDue = Math.min(runtime.drainDue, performance.now());
      this.#schedule();
    }
    return replayed;
  }

  /** Stops the entrance, the passes (after their page) and the leases; closes what it opened. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#wake?.();
    await this.#entrance?.close();
    await Promise.allSettled([...this.#runtimes.values()].map((runtime) => runtime.running));
    await this.#running?.catch(() => undefined);
    await this.#leases?.stop();
    if (this.#db) {
      // The lines keep each shop's last state; the lease holder is gone.
      for (const runtime of this.#runtimes.values()) {
        if (runtime.state === 'backfilling' || runtime.state === 'waiting') runtime.state = 'stopped';
        if (runtime.state !== 'elsewhere') await this.#writeHealth(runtime);
      }
      if (typeof this.#options.db === 'string') await this.#db.close();
    }
    this.#db = null;
  }

  async #setup(): Promise<void> {
    this.#ready ??= (async () => {
      const shops = Array.isArray(this.#options.shops)
        ? (this.#options.shops as readonly RegisteredShop[])
        : await loadShops(this.#options.shops as ShopSource);
      const names = new Set<string>();
      for (const shop of shops) {
        if (names.has(shop.name)) throw new ShopError(`the shop ${shop.name} is registered twice`);
        names.add(shop.name);
        this.#runtimes.set(shop.name, newRuntime(shop));
      }
      const opened =
        typeof this.#options.db === 'string' ? await openSyncDatabase(this.#options.db) : this.#options.db;
      // One SQLite connection: a lone statement waits for the open transaction.
      const db = opened.dialect === 'sqlite' ? queued(opened) : opened;
      await migrate(db);
      await setupFleetTables(db);
      this.#db = db;
    })();
    return this.#ready;
  }

  async #startLeases(): Promise<void> {
    if (this.#leases) return;
    const events: ShopLeaseEvents = {
      onAcquired: (lease) => {
        const runtime = this.#runtimes.get(lease.shop);
        if (!runtime) return;
        runtime.lease = lease;
        runtime.state = runtime.backfilled ? 'current' : 'waiting';
        runtime.reason = null;
        if (lease.handedOver) {
          runtime.pacing = true;
          void this.#pace(runtime).then(() => this.#writeHealth(runtime));
        } else {
          runtime.feedDue = Math.min(runtime.feedDue, performance.now());
          void this.#writeHealth(runtime);
          this.#schedule();
        }
      },
      onLost: (shop, reason) => {
        const runtime = this.#runtimes.get(shop);
        if (!runtime) return;
        runtime.lease = null;
        if (this.#stopping) return;
        runtime.state = 'elsewhere';
        runtime.reason = 'lease_lost';
        runtime.lastError = reason;
        return Promise.resolve(runtime.running).then(() => this.#writeHealth(runtime));
      },
    };
    this.#leases = this.#options.leases
      ? this.#options.leases(events)
      : new LocalShopLeases({ ...events, holder: `pid:${process.pid}` });
    await this.#leases.start([...this.#runtimes.keys()]);
  }

  async #live(): Promise<void> {
    await this.#setup();
    const listen = this.#options.listen;
    if (listen !== undefined) {
      this.#entrance = await fleetEntrance({
        server: typeof listen === 'number' ? createServer() : listen,
        port: typeof listen === 'number' ? listen : null,
        host: this.#options.host ?? '127.0.0.1',
        shops: (name) => this.#runtimes.get(name)?.shop ?? null,
        receive: (shop, event) => this.#receive(shop, event),
      });
      if (this.#entrance.url) this.#options.onListening?.(this.#entrance.url);
    }
    const stopped = new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    if (this.#stopping) return;
    await this.#startLeases();
    this.#schedule();
    await stopped;
  }

  /** Writes a verified delivery into the inbox (a second copy changes nothing) and wakes its shop. */
  async #receive(shop: string, event: SyncEvent): Promise<void> {
    const db = this.#db!;
    await db.transaction((tx) =>
      tx.run(
        'INSERT INTO "sync_shop_inbox" ("shop", "event_id", "event", "received_at", "applied_at") VALUES (?, ?, ?, ?, NULL) ON CONFLICT ("shop", "event_id") DO NOTHING',
        [shop, event.id, JSON.stringify(event), Date.now()],
      ),
    );
    const runtime = this.#runtimes.get(shop);
    // Before its first backfill or in a back-off, a delivery does not bring the pass forward.
    if (!runtime || this.#stopping || !runtime.backfilled || runtime.failures > 0) return;
    // A short delay gathers a burst into one transaction.
    runtime.drainDue = Math.min(runtime.drainDue, performance.now() + 20);
    this.#schedule();
  }

  /** Starts every shop that is due and not running; sets the one timer for the next due one. */
  #schedule(): void {
    if (this.#stopping || !this.#wake) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const runtime of this.#runtimes.values()) {
      if (!runtime.lease || runtime.running || runtime.pacing) continue;
      const due = Math.min(runtime.feedDue, runtime.drainDue, runtime.refreshDue);
      if (due <= now) {
        runtime.running = this.#pass(runtime).finally(() => {
          runtime.running = null;
          this.#schedule();
        });
      } else if (due < next) next = due;
    }
    if (next !== Number.POSITIVE_INFINITY) {
      this.#timer = setTimeout(() => this.#schedule(), Math.max(1, next - now));
    }
  }

  /** A shop just held: its first call an interval after the shop's last call (its line), not at once. */
  async #pace(runtime: ShopRuntime): Promise<void> {
    let wait = 0;
    try {
      const [line] = await this.#db!.all<{ last_call_at: unknown }>(
        'SELECT "last_call_at" FROM "sync_shops" WHERE "shop" = ?',
        [runtime.shop.name],
      );
      const last = line?.last_call_at ? Date.parse(String(line.last_call_at)) : Number.NaN;
      if (Number.isFinite(last))
        wait = Math.min(this.#intervalMs, Math.max(0, last + this.#intervalMs - Date.now()));
    } catch {}
    const at = performance.now() + wait;
    runtime.feedDue = at;
    runtime.refreshDue = Math.max(runtime.refreshDue, at);
    runtime.pacing = false;
    this.#schedule();
  }

  /** One scheduled step of a shop: its first pass, a feed read, a refresh, or applying its deliveries. */
  async #pass(runtime: ShopRuntime): Promise<void> {
    const now = performance.now();
    const sync = this.#sync(runtime);
    try {
      runtime.refused = { payment: false, permission: false };
      if (!runtime.backfilled || runtime.refreshDue <= now) {
        // A retried shop keeps its state until the pass ends.
        if (!runtime.backfilled && runtime.failures === 0) await this.#change(runtime, 'backfilling', null);
        const result = await sync.runOnce();
        runtime.backfilled = true;
        runtime.skipped = result.skipped;
        runtime.feedReadAt = new Date().toISOString();
        runtime.refreshDue =
          performance.now() + (result.skipped.length > 0 ? this.#retry.pausedMs : this.#refreshMs);
        runtime.feedDue = performance.now() + this.#intervalMs;
      } else if (runtime.feedDue <= now) {
        await sync.catchUp();
        runtime.feedReadAt = new Date().toISOString();
        runtime.feedDue = performance.now() + this.#intervalMs;
      }
      runtime.drainDue = Number.POSITIVE_INFINITY;
      await this.#drain(runtime, sync);
      await this.#prune(runtime);
      this.#succeeded(runtime);
    } catch (error) {
      if (!this.#stopping || !stoppedBy(error)) this.#failed(runtime, error);
    }
    await this.#change(runtime, runtime.state, runtime.reason);
  }

  async #once(runtime: ShopRuntime): Promise<FleetShopResult> {
    const sync = this.#sync(runtime);
    let rows = 0;
    let written = 0;
    try {
      runtime.refused = { payment: false, permission: false };
      await this.#change(runtime, 'backfilling', null);
      const result = await sync.runOnce();
      rows = result.rows;
      written = result.written;
      runtime.backfilled = true;
      runtime.skipped = result.skipped;
      runtime.feedReadAt = new Date().toISOString();
      written += await this.#drain(runtime, sync);
      await this.#prune(runtime);
      this.#succeeded(runtime);
    } catch (error) {
      if (!this.#stopping || !stoppedBy(error)) this.#failed(runtime, error);
    }
    await this.#change(runtime, runtime.state, runtime.reason);
    return {
      shop: runtime.shop.name,
      state: runtime.state,
      reason: runtime.reason,
      rows,
      written,
      skipped: runtime.skipped,
      error: runtime.state === 'current' ? null : runtime.lastError,
    };
  }

  /**
   * Applies the waiting deliveries a batch a transaction; a batch that fails on its own account is applied
   * again one delivery at a time, so only the bad one counts an attempt (dead at `maxAttempts`).
   */
  async #drain(runtime: ShopRuntime, sync: ShopSync): Promise<number> {
    const db = this.#db!;
    const shop = runtime.shop.name;
    let written = 0;
    let failure: unknown = null;
    // Read past the last batch: a failed delivery stays behind.
    let after: { receivedAt: unknown; eventId: unknown } | null = null;
    for (;;) {
      const rows = await db.all<{
        event_id: unknown;
        event: unknown;
        attempts: unknown;
        received_at: unknown;
      }>(
        `SELECT "event_id", "event", "attempts", "received_at" FROM "sync_shop_inbox" WHERE "shop" = ? AND "applied_at" IS NULL AND "dead_at" IS NULL${after ? ' AND ("received_at" > ? OR ("received_at" = ? AND "event_id" > ?))' : ''} ORDER BY "received_at", "event_id" LIMIT 100`,
        after ? [shop, after.receivedAt, after.receivedAt, after.eventId] : [shop],
      );
      if (rows.length === 0) break;
      const last: InboxRow = rows[rows.length - 1]!;
      after = { receivedAt: last.received_at, eventId: last.event_id };
      try {
        written += await db.transaction(async (tx) => {
          let count = 0;
          for (const row of rows) count += await this.#applyDelivery(sync, tx, shop, row);
          return count;
        });
      } catch (error) {
        if (transient(error)) throw error;
        for (const row of rows) {
          try {
            written += await db.transaction((tx) => this.#applyDelivery(sync, tx, shop, row));
          } catch (one) {
            if (transient(one)) throw one;
            failure ??= await this.#attemptFailed(runtime, row, one);
          }
        }
      }
      if (rows.length < 100) break;
    }
    if (failure !== null) throw failure;
    return written;
  }

  /** Applies one delivery in `tx` (fenced by the engine) with its done mark; resolves with the rows written. */
  async #applyDelivery(
    sync: ShopSync,
    tx: SqlExecutor,
    shop: string,
    row: { event_id: unknown; event: unknown },
  ): Promise<number> {
    const count = await sync.applyEvent(JSON.parse(String(row.event)) as SyncEvent, tx);
    await tx.run(
      'UPDATE "sync_shop_inbox" SET "applied_at" = ? WHERE "shop" = ? AND "event_id" = ? AND "applied_at" IS NULL',
      [Date.now(), shop, row.event_id],
    );
    return count;
  }

  /**
   * Counts a failed apply of one delivery (in a transaction fenced by the shop's lease); at `maxAttempts`
   * marks it dead, tells `onError` and the shop's line. Resolves with null when it went dead, else with the
   * error its pass fails with (the shop backs off and tries it again).
   */
  async #attemptFailed(
    runtime: ShopRuntime,
    row: { event_id: unknown; event: unknown; attempts: unknown },
    error: unknown,
  ): Promise<unknown> {
    const shop = runtime.shop.name;
    const attempts = Number(row.attempts) + 1;
    const dead = attempts >= this.#maxAttempts;
    const shopSecrets = [runtime.shop.apiKey(), ...runtime.shop.webhookSecrets()];
    const message = redact(describe(error), shopSecrets).slice(0, 2000);
    const now = Date.now();
    await this.#db!.transaction(async (tx) => {
      const lease = runtime.lease;
      if (!lease) throw new LeaseLostError(shop);
      await this.#leases!.check(tx, lease);
      await tx.run(
        'UPDATE "sync_shop_inbox" SET "attempts" = ?, "last_error" = ?, "dead_at" = ? WHERE "shop" = ? AND "event_id" = ? AND "applied_at" IS NULL',
        [attempts, message, dead ? now : null, shop, row.event_id],
      );
    });
    const type = (() => {
      try {
        return String((JSON.parse(String(row.event)) as SyncEvent).type);
      } catch {
        return 'unreadable';
      }
    })();
    if (!dead) {
      return new ShopError(
        `event ${String(row.event_id)} (${type}) of shop ${shop} failed (attempt ${attempts} of ${this.#maxAttempts}; retried): ${message}`,
        { cause: error },
      );
    }
    const deadError = new FleetDeliveryDeadError(
      `event ${String(row.event_id)} (${type}) of shop ${shop} failed ${attempts} times and is dead (kept in sync_shop_inbox): ${message}`,
      { cause: error },
    );
    runtime.lastError = deadError.message;
    runtime.lastErrorAt = new Date(now).toISOString();
    this.#report(deadError, shop);
    return null;
  }

  /** Prunes the shop's applied deliveries when due. */
  async #prune(runtime: ShopRuntime): Promise<void> {
    if (performance.now() < runtime.pruneDue) return;
    runtime.pruneDue = performance.now() + PRUNE_EVERY_MS;
    const before = Date.now() - this.#doneMs;
    try {
      // Batches let other shops use the one SQLite connection.
      for (let batch = 0; batch < 100; batch++) {
        if ((await pruneApplied(this.#db!, runtime.shop.name, before, PRUNE_BATCH)) < PRUNE_BATCH) break;
      }
    } catch (error) {
      if (transient(error)) throw error;
      this.#report(
        new FleetPruneError(
          `applied deliveries of shop ${runtime.shop.name} were not pruned (tried again in an hour): ${describe(error)}`,
          { cause: error },
        ),
        runtime.shop.name,
      );
    }
  }

  #report(error: unknown, shop: string): void {
    try {
      this.#options.onError?.(error, shop);
    } catch {
      // A reporter that throws must not stop the shop.
    }
  }

  #succeeded(runtime: ShopRuntime): void {
    runtime.failures = 0;
    runtime.lastSuccessAt = new Date().toISOString();
    if (runtime.skipped.length > 0) {
      runtime.state = 'degraded';
      runtime.reason = runtime.refused.payment ? 'missing_add_on' : 'missing_permission';
      runtime.lastError = `tables skipped: ${runtime.skipped.join(', ')} (${runtime.refused.payment ? '402: an add-on the shop does not have' : '403: a permission the key lacks'})`;
      runtime.lastErrorAt = runtime.lastSuccessAt;
    } else {
      runtime.state = 'current';
      runtime.reason = null;
    }
  }

  #failed(runtime: ShopRuntime, error: unknown): void {
    const [state, reason] = classify(error);
    runtime.state = state;
    runtime.reason = reason;
    runtime.lastError = describe(error);
    runtime.lastErrorAt = new Date().toISOString();
    if (state === 'elsewhere') {
      runtime.lease = null;
      return;
    }
    runtime.failures++;
    const wait =
      state === 'paused' || state === 'degraded'
        ? this.#retry.pausedMs
        : Math.min(this.#retry.maxMs, this.#retry.baseMs * 2 ** (runtime.failures - 1)) *
          (0.75 + Math.random() * 0.5);
    const at = performance.now() + wait;
    // Feed, refresh and deliveries all wait.
    runtime.feedDue = at;
    runtime.drainDue = Number.POSITIVE_INFINITY;
    if (runtime.refreshDue !== Number.POSITIVE_INFINITY)
      runtime.refreshDue = Math.max(runtime.refreshDue, at);
  }

  async #change(runtime: ShopRuntime, state: ShopState, reason: ShopReason | null): Promise<void> {
    runtime.state = state;
    runtime.reason = reason;
    await this.#writeHealth(runtime);
    this.#options.onChange?.({
      shop: runtime.shop.name,
      state,
      reason,
      error: state === 'current' || state === 'backfilling' ? null : runtime.lastError,
    });
  }

  /** Writes the shop's health row; never rejects (a failure goes to `onError`, the line shows stale). */
  async #writeHealth(runtime: ShopRuntime): Promise<void> {
    const db = this.#db;
    if (!db) return;
    try {
      const lease = runtime.lease;
      await db.transaction(async (tx) => {
        // A worker whose lease was taken writes no line.
        if (lease && this.#leases?.holds && !(await this.#leases.holds(tx, lease))) return;
        await writeHealth(
          tx,
          {
            shop: runtime.shop.name,
            state: runtime.state,
            reason: runtime.reason,
            leaseHolder: runtime.lease?.holder ?? null,
            lastCallAt:
              runtime.lastCallAt === null
                ? null
                : new Date(Date.now() - (performance.now() - runtime.lastCallAt)).toISOString(),
            lastSuccessAt: runtime.lastSuccessAt,
            feedReadAt: runtime.feedReadAt,
            callsLastMinute: this.#callsLastMinute(runtime),
            callsCap: this.#cap(runtime),
            skipped: runtime.skipped,
            lastError: runtime.lastError,
            lastErrorAt: runtime.lastErrorAt,
            freshUntil: this.#freshUntil(runtime),
          },
          this.#leases?.holder ?? null,
        );
      });
      runtime.healthError = null;
    } catch (error) {
      runtime.healthError = describe(error);
      try {
        this.#options.onError?.(error, runtime.shop.name);
      } catch {
        // A reporter that throws must not stop the shop.
      }
    }
  }

  /** Latest time the row will be rewritten (none while backfilling, not ours, or stopped). */
  #freshUntil(runtime: ShopRuntime): string | null {
    if (this.#stopping || !runtime.lease) return null;
    if (runtime.state === 'backfilling' || runtime.state === 'elsewhere' || runtime.state === 'stopped')
      return null;
    const next = Math.min(runtime.feedDue, runtime.refreshDue) - performance.now();
    const wait = Number.isFinite(next) ? Math.max(0, next) : this.#intervalMs;
    return new Date(Date.now() + wait + Math.max(2 * this.#intervalMs, MINUTE)).toISOString();
  }

  #cap(runtime: ShopRuntime): number | null {
    return runtime.limit === null ? null : Math.floor(runtime.limit * (runtime.shop.maxShare ?? 1));
  }

  #callsLastMinute(runtime: ShopRuntime): number {
    const since = performance.now() - MINUTE;
    while (runtime.calls.length > 0 && runtime.calls[0]! < since) runtime.calls.shift();
    return runtime.calls.length;
  }

  /** The shop's engine, made on its first pass. */
  #sync(runtime: ShopRuntime): ShopSync {
    if (runtime.sync) return runtime.sync;
    const shop = runtime.shop;
    const own = this.#options.client?.hooks;
    const hooks: ShopHooks = {
      ...own,
      beforeRequest: [
        () => {
          if (this.#stopping) throw new FleetStoppedError();
          // A worker whose lease ended reads no more of the shop.
          const lease = runtime.lease;
          if (!lease || this.#leases?.held().get(shop.name)?.token !== lease.token)
            throw new LeaseLostError(
              shop.name,
              `the lease on shop ${shop.name} is no longer this worker's: no more calls are made for it`,
            );
          runtime.lastCallAt = performance.now();
          runtime.calls.push(runtime.lastCallAt);
          if (runtime.calls.length > 4096) this.#callsLastMinute(runtime);
        },
        ...(own?.beforeRequest ?? []),
      ],
      afterResponse: [
        (_request, options) => {
          const { status, rateLimit } = options.context;
          if (rateLimit.limit !== null) runtime.limit = rateLimit.limit;
          if (status === 402) runtime.refused.payment = true;
          if (status === 403) runtime.refused.permission = true;
        },
        ...(own?.afterResponse ?? []),
      ],
    };
    const client = new ShopClient({
      apiKey: shop.apiKey,
      ...(shop.baseUrl ? { baseUrl: shop.baseUrl } : {}),
      ...(this.#options.client?.timeout !== undefined ? { timeout: this.#options.client.timeout } : {}),
      ...(this.#options.client?.maxRetries !== undefined
        ? { maxRetries: this.#options.client.maxRetries }
        : {}),
      hooks,
    });
    const leases = this.#leases!;
    runtime.sync = new ShopSync({
      client,
      db: this.#db!,
      shop: shop.name,
      ...(shop.tables ? { tables: shop.tables } : {}),
      ...(shop.maxShare !== undefined ? { maxShare: shop.maxShare } : {}),
      ...(this.#options.pageSize !== undefined ? { pageSize: this.#options.pageSize } : {}),
      rateLimit: { store: this.#store, key: shop.name },
      beforeWrite: async (tx) => {
        const lease = runtime.lease;
        if (!lease) throw new LeaseLostError(shop.name);
        await leases.check(tx, lease);
      },
      onGap: (gap) => this.#options.onGap?.(shop.name, gap),
    });
    return runtime.sync;
  }
}

/** A waiting delivery of `sync_shop_inbox` as the drain reads it. */
interface InboxRow {
  event_id: unknown;
  event: unknown;
  attempts: unknown;
  received_at: unknown;
}

/** A webhook delivery that failed to apply `maxAttempts` times (told to `onError`); its error is the `cause`. */
export class FleetDeliveryDeadError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'FleetDeliveryDeadError';
  override readonly name: string = 'FleetDeliveryDeadError';
}

/** A prune that failed (told to `onError`). */
export class FleetPruneError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'FleetPruneError';
  override readonly name: string = 'FleetPruneError';
}

/** A failure that says nothing of the delivery: the database away, the lease lost, the fleet stopping. */
function transient(error: unknown): boolean {
  return (
    error instanceof DatabaseUnavailableError ||
    error instanceof LeaseLostError ||
    (error as Error)?.cause instanceof LeaseLostError ||
    error instanceof FleetStoppedError
  );
}

/** The fleet's stop ended the pass (its request hook refused the next call). */
function stoppedBy(error: unknown): boolean {
  return error instanceof FleetStoppedError || (error as Error)?.cause instanceof FleetStoppedError;
}

/** A call refused because the fleet is stopping: the pass ends at its next call. */
class FleetStoppedError extends ShopError {
  override readonly name: string = 'FleetStoppedError';
  constructor() {
    super('the fleet is stopping');
  }
}

function newRuntime(shop: RegisteredShop): ShopRuntime {
  return {
    shop,
    lease: null,
    sync: null,
    backfilled: false,
    running: null,
    feedDue: 0,
    drainDue: Number.POSITIVE_INFINITY,
    refreshDue: Number.POSITIVE_INFINITY,
    pruneDue: 0,
    failures: 0,
    state: 'waiting',
    reason: null,
    lastError: null,
    lastErrorAt: null,
    lastSuccessAt: null,
    feedReadAt: null,
    skipped: [],
    calls: [],
    lastCallAt: null,
    pacing: false,
    limit: null,
    refused: { payment: false, permission: false },
    healthError: null,
  };
}

/** What a failed pass means for its shop. */
function classify(error: unknown): [ShopState, ShopReason] {
  // A lease found lost by the fleet's own request hook comes wrapped in the client's HookError.
  if (error instanceof LeaseLostError || (error as Error)?.cause instanceof LeaseLostError)
    return ['elsewhere', 'lease_lost'];
  if (error instanceof AuthenticationError) return ['paused', 'key_revoked'];
  if (error instanceof PaymentRequiredError) return ['degraded', 'missing_add_on'];
  if (error instanceof PermissionDeniedError) return ['degraded', 'missing_permission'];
  if (error instanceof RateLimitError) return ['retrying', 'rate_limited'];
  if (error instanceof ShopApiError && error.status >= 500) return ['retrying', 'server_error'];
  if (error instanceof TimeoutError) return ['retrying', 'timeout'];
  if (error instanceof ConnectionError) return ['retrying', 'unreachable'];
  return ['retrying', 'error'];
}

/** An error as a status line says it: its class, its status and its message (never a secret). */
function describe(error: unknown): string {
  if (error instanceof ShopApiError) return `${error.name} ${error.status}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** A SQLite database whose statements outside a transaction wait for the open one (else they would join it). */
function queued(db: SyncDatabase): SyncDatabase {
  return {
    dialect: db.dialect,
    all: (sql, params) => db.transaction((tx) => tx.all(sql, params)),
    run: (sql, params) => db.transaction((tx) => tx.run(sql, params)),
    transaction: (work: (tx: SqlExecutor) => Promise<never>) => db.transaction(work),
    close: () => db.close(),
  } as SyncDatabase;
}
