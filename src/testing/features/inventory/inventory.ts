import { apiError, notFound } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import { type Actor, defaultLocationId, requireWritableLocation } from '../actor.js';
import type { DomainWorld } from '../world.js';
import type { ProductRecord } from './catalog-state.js';
import type { InventoryLevelRecord, StockRow } from './state.js';

/** The product with this SKU (unique per shop; compared without case, as SKU_TAKEN does). */
export function productBySku(world: DomainWorld, sku: string): ProductRecord | undefined {
  const wanted = sku.toUpperCase();
  return world.state.catalog.products.find((product) => product.sku.toUpperCase() === wanted);
}

/** The stock row of a product at a location, if the location has ever stocked it. */
export function stockRow(world: DomainWorld, productId: number, locationId: number): StockRow | undefined {
  return world.state.inventory.levels.find(
    (row) => row.level.product_id === productId && row.location_id === locationId,
  );
}

/** The stock row, created at zero the first time a tracked product moves at a location. */
export function ensureStockRow(world: DomainWorld, product: ProductRecord, locationId: number): StockRow {
  return (
    stockRow(world, product.id, locationId) ??
    world.state.inventory.levels.insert((id) => ({
      id,
      location_id: locationId,
      level: {
        object: 'inventory_level',
        product_id: product.id,
        location_id: locationId,
        qty_on_hand: 0,
        qty_reserved: 0,
        qty_available: 0,
        reorder_point: 0,
        bin_location: '',
        updated_at: world.clock.iso(),
      },
    }))
  );
}

/** Every level of a product, for product payloads and include=inventory. */
export function levelsOf(world: DomainWorld, productId: number): InventoryLevelRecord[] {
  return world.state.inventory.levels
    .filter((row) => row.level.product_id === productId)
    .sort((a, b) => a.id - b.id)
    .map((row) => ({ ...row.level }));
}

/** How stock moves at one location; the caller has checked every rule. */
export interface StockMove {
  readonly product: ProductRecord;
  readonly locationId: number;
  /** Signed change of qty_on_hand: the event's qty_delta (0 when a unit is held or released). */
  readonly onHandDelta: number;
  /** Signed change of qty_reserved (holds on orders awaiting pickup or transfer). */
  readonly reservedDelta?: number;
  /** The event's reason: sale, hold, receive, count, adjustment, void, ... */
  readonly reason: string;
}

/** Applies a stock move and fires inventory.changed (level + sku, name, qty_delta, reason). */
export function moveStock(world: DomainWorld, move: StockMove): StockRow {
  const row = ensureStockRow(world, move.product, move.locationId);
  const level = row.level;
  level.qty_on_hand += move.onHandDelta;
  level.qty_reserved += move.reservedDelta ?? 0;
  level.qty_available = level.qty_on_hand - level.qty_reserved;
  touch(level, world.clock.nowMs());
  world.events.record('inventory.changed', {
    ...level,
    sku: move.product.sku,
    name: move.product.name,
    qty_delta: move.onHandDelta,
    reason: move.reason,
  });
  return row;
}

/** What can still be sold of a product at a location (0 where it never stocked). */
export function availableAt(world: DomainWorld, productId: number, locationId: number): number {
  return stockRow(world, productId, locationId)?.level.qty_available ?? 0;
}

/** The product and location a stock write names, after the checks every stock write shares. */
function stockTarget(world: DomainWorld, actor: Actor, sku: string, locationId: number | undefined) {
  const product = productBySku(world, sku);
  if (!product) throw notFound('product with that SKU');
  const location = locationId ?? defaultLocationId(world, actor);
  requireWritableLocation(world, actor, location);
  if (!product.track_inventory) {
    throw apiError('NOT_TRACKED', `${product.sku} does not track inventory`, {
      sku: product.sku,
    });
  }
  return { product, locationId: location };
}

/** 409 SERIALIZED: units are counted one by one (and received at the register), never as a number. */
function refuseSerialized(product: ProductRecord, what: string): void {
  if (product.is_serialized) {
    throw apiError('SERIALIZED', `${product.sku} is serialized: its ${what} follows its units`, {
      sku: product.sku,
    });
  }
}

/** The write's answer: the level plus what the inventory.changed event carries. */
function writeResult(row: StockRow, product: ProductRecord, delta: number, reason: string) {
  return { ...row.level, sku: product.sku, name: product.name, qty_delta: delta, reason };
}

/** A stock write as asked for: the SKU, the location (undefined: the actor's default) and the reason. */
export interface StockWrite {
  readonly sku: string;
  readonly locationId: number | undefined;
  readonly reason: string;
}

/** POST /v1/inventory/adjust's rule: moves qty_on_hand by `delta`, never below what is available. */
export function adjustStock(
  world: DomainWorld,
  actor: Actor,
  input: StockWrite & { readonly delta: number },
) {
  const { delta, reason } = input;
  const { product, locationId: location } = stockTarget(world, actor, input.sku, input.locationId);
  // The reference lists SERIALIZED for set and receive; a delta on units is refused the same way.
  refuseSerialized(product, 'count');
  const available = stockRow(world, product.id, location)?.level.qty_available ?? 0;
  if (available + delta < 0) {
    throw apiError('INSUFFICIENT_STOCK', `Only ${available} of ${product.sku} available`, {
      sku: product.sku,
      qty_available: available,
    });
  }
  const row = moveStock(world, { product, locationId: location, onHandDelta: delta, reason });
  return writeResult(row, product, delta, reason);
}

/** POST /v1/inventory/set's rule: a count; an unchanged count moves nothing (no inventory.changed). */
export function setStock(world: DomainWorld, actor: Actor, input: StockWrite & { readonly count: number }) {
  const { count, reason } = input;
  const { product, locationId: location } = stockTarget(world, actor, input.sku, input.locationId);
  refuseSerialized(product, 'count');
  const current = stockRow(world, product.id, location)?.level.qty_on_hand ?? 0;
  const delta = count - current;
  // An unchanged count moves nothing, so no inventory.changed fires.
  const row =
    delta === 0
      ? ensureStockRow(world, product, location)
      : moveStock(world, { product, locationId: location, onHandDelta: delta, reason });
  return writeResult(row, product, delta, reason);
}
