import type { ShopEvent } from '../webhooks/events.js';
import { type Poller, type PollOptions, poll } from './poll.js';
import { compareTimestamps, isTimestamp } from './timestamps.js';

/** One product's stock at one location, as a mirror holds it. */
export interface MirroredLevel {
  readonly product_id: number;
  readonly location_id: number;
  /** The stock to show and sell from (set it, never add deltas). */
  readonly qty_available: number;
  readonly qty_on_hand?: number;
  readonly qty_reserved?: number;
  /** When the API last changed this level; an older change is skipped. */
  readonly updated_at: string;
}

/** Where the mirror keeps levels; shared by several processes, make `set` conditional on `updated_at`. */
export interface InventoryStore {
  /** The level of a product at a location. */
  get(productId: number, locationId: number): MirroredLevel | undefined | Promise<MirroredLevel | undefined>;
  /** Stores a level. */
  set(level: MirroredLevel): void | Promise<void>;
}

/** An {@link InventoryStore} in memory. */
export class MemoryInventoryStore implements InventoryStore {
  readonly #levels = new Map<string, MirroredLevel>();

  get(productId: number, locationId: number): MirroredLevel | undefined {
    return this.#levels.get(`${productId}:${locationId}`);
  }

  set(level: MirroredLevel): void {
    this.#levels.set(`${level.product_id}:${level.location_id}`, level);
  }

  /** Every level held, unordered. */
  levels(): MirroredLevel[] {
    return [...this.#levels.values()];
  }
}

/** `applied`, `stale` (older than the level held), `ignored` (not `inventory.changed`), `invalid` (fields missing). */
export type ApplyOutcome = 'applied' | 'stale' | 'ignored' | 'invalid';

/** What the mirror needs from a client (a `ShopClient` fits). */
export interface InventorySource {
  readonly inventory: {
    /** Levels changed since a time, every page. */
    list(params: { updated_since?: string; limit?: number }): AsyncIterable<unknown>;
  };
}

/** What one {@link InventoryMirror.reconcile} did. */
export interface ReconcileResult {
  readonly applied: number;
  readonly stale: number;
  readonly invalid: number;
  /** The newest `updated_at` read: the next `since`. */
  readonly latestUpdatedAt: string | null;
}

/** Options of {@link InventoryMirror.startReconciling}. */
export interface ReconcilePollOptions extends PollOptions {
  /** Where the first reconcile starts. @default everything */
  since?: string | Date;
}

/**
 * Keeps inventory levels in step with the API: set `qty_available`, never add deltas, skip older changes.
 * @example
 * router.on('inventory.changed', (event) => mirror.applyEvent(event));
 */
export class InventoryMirror {
  readonly store: InventoryStore;
  // One read-then-write at a time per product and location, so the older of two events never wins.
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(options: { store?: InventoryStore } = {}) {
    this.store = options.store ?? new MemoryInventoryStore();
  }

  /** Applies an `inventory.changed` event; other types are `ignored`. */
  applyEvent(
    event: ShopEvent | { readonly type: string; readonly data: { readonly object: unknown } },
  ): Promise<ApplyOutcome> {
    if (event.type !== 'inventory.changed') return Promise.resolve('ignored');
    return this.applyLevel(event.data.object);
  }

  /** Applies one level unless it is older. */
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

  /** Pulls the levels changed since `since` and applies each. */
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

  /** Reconciles now, then `intervalMs` (default 30 minutes) after each run, until `stop()`. */
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

/** The mirrored fields of a level (never the event-only `qty_delta` and `reason`). */
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
