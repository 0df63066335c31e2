import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import type { CustomerRecord } from '../../state/shop.js';
import { Table } from '../../state/table.js';

/**
 * An order line. The reference does not show order fields; this shape is the sandbox's own and the
 * memberships/products half of the sandbox extends it.
 */
export interface OrderLine {
  type: string;
  product_id: number | null;
  description: string;
  qty: number;
  unit_price_cents: number;
  total_cents: number;
}

/** A point-of-sale order, as carried by sale.completed (which always embeds the full customer). */
export type OrderRecord = SandboxRecord<
  Api.Order,
  {
    object: 'order';
    number: string;
    status: string;
    source: string;
    location_id: number;
    customer_id: number | null;
    customer: CustomerRecord | null;
    lines: OrderLine[];
    subtotal_cents: number;
    tax_cents: number;
    total_cents: number;
    created_at: string;
    updated_at: string;
  },
  'payments'
>;

export interface OrderState {
  orders: Table<OrderRecord>;
}

export function createOrderState(): OrderState {
  return { orders: new Table() };
}
