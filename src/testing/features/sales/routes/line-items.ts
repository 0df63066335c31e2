/** The server's rules of a `lines[]` item (a SKU, quantity of at least 1, a non-negative amount), named `lines[i].field`. */
export const LINE_ITEM_RULES = {
  sku: { type: 'string', required: true },
  qty: { type: 'integer', required: true, minimum: 1 },
} as const;

/** One `lines[]` item as purchase orders and orders take it: a SKU, a quantity and maybe a unit amount. */
export interface LineItemRequest {
  readonly sku: string;
  readonly qty: number;
  /** unit_cost_cents on a purchase order, unit_price_cents on an order; undefined when not sent. */
  readonly unitCents: number | undefined;
}

/** The lines of a body its rules have read and `done()` has passed (so every sku and qty is there). */
export function lineItems(
  lines: readonly { sku?: string; qty?: number; unit_cost_cents?: number; unit_price_cents?: number }[],
): LineItemRequest[] {
  return lines.map((line) => ({
    sku: line.sku!,
    qty: line.qty!,
    unitCents: line.unit_cost_cents ?? line.unit_price_cents,
  }));
}
