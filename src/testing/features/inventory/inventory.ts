import type { SandboxCore } from '../../core.js';
import { touch } from '../../state/stamps.js';
import type { ProductRecord } from './catalog-state.js';
import type { InventoryLevelRecord, StockRow } from './state.js';

/** The product with this SKU (unique per shop; compared without case, as SKU_TAKEN does). */
export function productBySku(core: SandboxCore, sku: string): ProductRecord | undefined {
  const wanted = sku.toUpperCase();
  return core.state.catalog.products.find((product) => product.sku.toUpperCase() === wanted);
}

/** The stock row of a product at a location, if the location has ever stocked it. */
export function stockRow(core: SandboxCore, productId: number, locationId: number): StockRow | undefined {
  return core.state.inventory.levels.find(
    (row) => row.level.product_id === productId && row.location_id === locationId,
  );
}

/** The stock row, created at zero the first time a tracked product moves at a location. */
export function ensureStockRow(core: SandboxCore, product: ProductRecord, locationId: number): StockRow {
  return (
    stockRow(core, product.id, locationId) ??
    core.state.inventory.levels.insert((id) => ({
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
        updated_at: core.clock.iso(),
      },
    }))
  );
}

/** Every level of a product, for product payloads and include=inventory. */
export function levelsOf(core: SandboxCore, productId: number): InventoryLevelRecord[] {
  return core.state.inventory.levels
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
export function moveStock(core: SandboxCore, move: StockMove): StockRow {
  const row = ensureStockRow(core, move.product, move.locationId);
  const level = row.level;
  level.qty_on_hand += move.onHandDelta;
  level.qty_reserved += move.reservedDelta ?? 0;
  level.qty_available = level.qty_on_hand - level.qty_reserved;
  touch(level, core.clock.nowMs());
  core.events.record('inventory.changed', {
    ...level,
    sku: move.product.sku,
    name: move.product.name,
    qty_delta: move.onHandDelta,
    reason: move.reason,
  });
  return row;
}

/** What can still be sold of a product at a location (0 where it never stocked). */
export function availableAt(core: SandboxCore, productId: number, locationId: number): number {
  return stockRow(core, productId, locationId)?.level.qty_available ?? 0;
}
