import { Table } from './table.js';

/** return_line of reference section 2. */
export interface ReturnLineRecord {
  object: 'return_line';
  id: number;
  /** Null on an online return: there is no point-of-sale order line. */
  order_line_id: number | null;
  product_id: number;
  sku: string;
  description: string;
  qty: number;
  unit_price_cents: number;
  tax_cents: number;
  line_total_cents: number;
  condition: 'restock' | 'damaged';
  restocked: boolean;
}

/** return of reference section 2: source sale (order_id set) or online (storefront_order_id set). */
export interface ReturnRecord {
  object: 'return';
  id: number;
  number: string;
  source: 'sale' | 'online';
  order_id: number | null;
  storefront_order_id: string | null;
  location_id: number;
  customer_id: number;
  settlement: 'refund' | 'store_credit' | 'exchange';
  refund_tender: string;
  items_cents: number;
  tax_cents: number;
  restock_fee_cents: number;
  total_cents: number;
  reason: string;
  lines: ReturnLineRecord[];
  created_at: string;
}

/** Processed returns (read only through the API). */
export interface ReturnState {
  returns: Table<ReturnRecord>;
  /** Return lines are numbered shop-wide. */
  lineIds: { last: number };
}

export function createReturnState(): ReturnState {
  return { returns: new Table(), lineIds: { last: 0 } };
}
