import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/** A purchase-order line: sku, qty and unit_cost_cents are the reference's; the rest the sandbox's own. */
export type PurchaseOrderLineRecord = SandboxRecord<
  Api.PurchaseOrderLine,
  {
    object: 'purchase_order_line';
    id: number;
    product_id: number;
    description: string;
    qty_received: number;
  }
>;

/** The sandbox's purchase-order statuses (the reference shows none; submitted is implied by PO_SUBMITTED). */
export type PurchaseOrderStatus = 'draft' | 'submitted' | 'partially_received' | 'received' | 'cancelled';

/**
 * A purchase order. vendor_id, location_id, channel_order_id and lines are the reference's; number,
 * status, the dates and timestamps are the sandbox's guess at the rest.
 */
export type PurchaseOrderRecord = SandboxRecord<
  Api.PurchaseOrder,
  {
    object: 'purchase_order';
    number: string;
    status: PurchaseOrderStatus;
    lines: PurchaseOrderLineRecord[];
    total_cost_cents: number;
    note: string | null;
    ordered_on: string;
    expected_on: string | null;
    submitted_at: string | null;
    cancelled_at: string | null;
    created_at: string;
    updated_at: string;
  }
>;

/** receiving as the receiving.posted event shows it (reference section 6); never serial numbers. */
export type ReceivingRecord = SandboxRecord<
  Api.Receiving,
  {
    status: 'posted';
    lines: {
      product_id: number;
      qty: number;
      unit_cost_cents: number;
      purchase_order_line_id: number | null;
    }[];
  }
>;

/** Purchase orders and the receivings posted against them. */
export interface PurchasingState {
  purchaseOrders: Table<PurchaseOrderRecord>;
  receivings: Table<ReceivingRecord>;
  /** PO lines are numbered shop-wide. */
  lineIds: { last: number };
}

export function createPurchasingState(): PurchasingState {
  return { purchaseOrders: new Table(), receivings: new Table(), lineIds: { last: 0 } };
}
