import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/** inventory_level of reference section 2 (without the event-only sku, name, qty_delta and reason). */
export type InventoryLevelRecord = SandboxRecord<Api.InventoryLevel>;

/** A level as stored: levels have no id of their own, so the row id orders the list and its cursor. */
export interface StockRow {
  id: number;
  location_id: number;
  level: InventoryLevelRecord;
}

/**
 * One serialized unit (every firearm). The reference shows only the serial number and the status sample
 * in_stock; the sandbox also uses held (on an order awaiting transfer), sold and rental (a gun on the
 * rental wall, not for sale).
 */
export type SerializedUnitRecord = SandboxRecord<
  Api.SerializedItem,
  {
    object: 'serialized_item';
    location_id: number;
    status: 'in_stock' | 'held' | 'sold' | 'rental';
    updated_at: string;
  }
>;

/** Stock per product and location, and the serialized units behind firearm counts. */
export interface InventoryState {
  levels: Table<StockRow>;
  units: Table<SerializedUnitRecord>;
  /** Unit id -> the order holding or having sold it. */
  unitOrders: Map<number, number>;
}

export function createInventoryState(): InventoryState {
  return { levels: new Table(), units: new Table(), unitOrders: new Map() };
}
