import type { ShopEvent } from '../webhooks/events.js';
import { type Poller, type PollOptions, poll } from './poll.js';
import { compareTimestamps, isTimestamp } from './timestamps.js';

/** One product's stock at one location, as a mirror holds it. */
export interface MirroredLevel {
  readonly product_id: number;
  readonly location_id: number;
  /** The stock to show and sell from (reference section 6: set it, never add deltas). */
  readonly qty_available: number;
  readonly qty_on_hand?: number;
  readonly qty_reserved?: number;
  /** When the API last changed this level; a change older than this is skipped. */
  readonly updated_at: string;
}

/**
 * Where the mirror keeps levels; implement it over your database. The mirror reads then writes one key at
 * a time within a process; with several processes writing one store, make `set` conditional on
 * `updated_at` (e.g. `UPDATE ... WHERE updated_at <= $new`).
 */
export interface InventoryStore {
  /** The mirrored level of a product at a location, or undefined when none is known yet. */
  get(productId: number, locationId: number): MirroredLevel | undefined | Promise<MirroredLevel | undefined>;
  /** Stores a level, replacing the one of the same product and location. */
  set(level: MirroredLevel): void | Promise<void>;
}

/** An {@link InventoryStore} in memory. */
export class MemoryInventoryStore implements InventoryStore {
  readonly #levels = new Map<string, MirroredLevel>();

  /** The level held in memory for a product at a location. */
  get(productId: number, locationId: number): MirroredLevel | undefined {
    return this.#levels.get(`${productId}:${locationId}`);
  }

  /** Holds a level in memory, replacing the one of the same product and location. */
  set(level: MirroredLevel): void {
    this.#levels.set(`${level.product_id}:${level.location_id}`, level);
  }

  /** Every level held, in no particular order. */
  levels(): MirroredLevel[] {
    return [...this.#levels.values()];
  }
}

/**
 * - `applied`: the level was stored;
 * - `stale`: older than the level held, skipped;
 * - `ignored`: not an `inventory.changed` event;
 * - `invalid`: lacks `product_id`, `location_id`, `qty_available` or a timestamp `updated_at`.
 */
export type ApplyOutcome = 'applied' | 'stale' | 'ignored' | 'invalid';

/** What the mirror needs from a client to reconcile: `inventory.list`; a `ShopClient` fits. */
export interface InventorySource {
  readonly inventory: {
    /** `shop.inventory.list`: levels changed since a time, every page. */
    list(params: { updated_since?: string; limit?: number }): AsyncIterable<unknown>;
  };
}

/** What one {@link InventoryMirror.reconcile} did. */
export interface ReconcileResult {
  readonly applied: number;
  readonly stale: number;
  readonly invalid: number;
  /** The newest `updated_at` read; pass it as `since` next time. Null when nothing was read. */
  readonly latestUpdatedAt: string | null;
}

/** Options of {@link InventoryMirror.startReconciling}. */
export interface ReconcilePollOptions extends PollOptions {
  /** Where the first reconcile starts; later ones start at the newest `updated_at` read. @default everything */
  since?: string | Date;
}

/**
 * Keeps inventory levels in step with the API by the reference's rules (section 6): set stock to
 * `qty_available` and never add `qty_delta`; skip a change older than the level held, per product and
 * location. Feed it `inventory.changed` events from webhooks and the feed, and reconcile from
 * `GET /v1/inventory` every 15 to 60 minutes to repair anything missed.
 *
 * @example
 * const mirror = new InventoryMirror({ store: new MemoryInventoryStore() });
 * router.on('inventory.changed', (event) => mirror.applyEvent(event));
 * const reconciling = mirror.startReconciling(shop, { intervalMs: 30 * 60_000 });
 */
export class InventoryMirror {
  readonly store: InventoryStore;
  // One read-then-write at a time per product and location, so two concurrent events cannot interleave
  // and leave the older one stored.
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(options: { store?: InventoryStore } = {}) {
    this.store = options.store ?? new MemoryInventoryStore();
  }

  /** Applies an `inventory.changed` event's payload; other event types are `ignored`. */
  applyEvent(
    event: ShopEvent | { readonly type: string; readonly data: { readonly object: unknown } },
  ): Promise<ApplyOutcome> {
    if (event.type !== 'inventory.changed') return Promise.resolve('ignored');
    return this.applyLevel(event.data.object);
  }

  /** Applies one inventory level (from an event payload or `GET /v1/inventory`) unless it is older. */
  applyLevel(value: unknown): Promise<ApplyOutcome> {
    const level = toLevel(value);
    if (!level) return Promise.resolve('invalid');
    const key = `${level.product_id}:${level.location_id}`;
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.#apply(level));
    const quiet = next.catch(() => undefined);
    this.#locks.set(key, quiet);
    void quiet.then(() => {
      if (this.#locks.get(key) === quiet) this.#locks.delete(key);
    });
    return next;
  }

  async #apply(level: MirroredLevel): Promise<ApplyOutcome> {
    const held = await this.store.get(level.product_id, level.location_id);
    if (held && isTimestamp(held.updated_at) && compareTimestamps(level.updated_at, held.updated_at) < 0) {
      return 'stale';
    }
    await this.store.set(level);
    return 'applied';
  }

  /**
   * Pulls `GET /v1/inventory?updated_since=...` and applies every level by the same rule, so a level that
   * a missed or late event left wrong is repaired and a newer one already held is kept.
   */
  async reconcile(
    source: InventorySource,
    options: { since?: string | Date } = {},
  ): Promise<ReconcileResult> {
    const since = options.since instanceof Date ? options.since.toISOString() : options.since;
    const counts = { applied: 0, stale: 0, invalid: 0, ignored: 0 };
    let latestUpdatedAt: string | null = null;
    for await (const value of source.inventory.list(since === undefined ? {} : { updated_since: since })) {
      const outcome = await this.applyLevel(value);
      counts[outcome]++;
      const updatedAt = (value as { updated_at?: unknown }).updated_at;
      if (
        isTimestamp(updatedAt) &&
        (latestUpdatedAt === null || compareTimestamps(updatedAt, latestUpdatedAt) > 0)
      ) {
        latestUpdatedAt = updatedAt;
      }
    }
    return { applied: counts.applied, stale: counts.stale, invalid: counts.invalid, latestUpdatedAt };
  }

  /**
   * Reconciles now, then again `intervalMs` (default 30 minutes) after each run ends, until `stop()`, each
   * run starting at the newest `updated_at` the previous ones read. A failed run goes to `onError` (default
   * `console.error`) and the next one retries from the same place: a bare `setInterval` around
   * {@link reconcile} would let one failure end the process as an unhandled rejection, and let slow runs
   * overlap.
   */
  startReconciling(source: InventorySource, options: ReconcilePollOptions = {}): Poller {
    let since = options.since;
    return poll(
      async () => {
        const result = await this.reconcile(source, since === undefined ? {} : { since });
        since = result.latestUpdatedAt ?? since;
      },
      options.intervalMs ?? 30 * 60_000,
      options.onError ?? ((error: unknown) => console.error('shop-mgmt: inventory reconcile failed', error)),
    );
  }
}

function isInteger(value: unknown): value is number {
  return Number.isInteger(value);
}

/** The mirrored fields of a level; the event-only `qty_delta` and `reason` are never stored. */
function toLevel(value: unknown): MirroredLevel | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!isInteger(v.product_id) || !isInteger(v.location_id) || !isInteger(v.qty_available)) return null;
  if (!isTimestamp(v.updated_at)) return null;
  return {
    product_id: v.product_id,
    location_id: v.location_id,
    qty_available: v.qty_available,
    ...(isInteger(v.qty_on_hand) ? { qty_on_hand: v.qty_on_hand } : {}),
    ...(isInteger(v.qty_reserved) ? { qty_reserved: v.qty_reserved } : {}),
    updated_at: v.updated_at,
  };
}
