import type { DomainWorld } from '../world.js';
import type { OrderLine, OrderRecord } from './orders-state.js';

/** What the register rings up. */
export interface NewSale {
  readonly locationId: number;
  readonly customerId: number | null;
  readonly lines: readonly OrderLine[];
  readonly source?: string;
}

/**
 * Rings up a paid sale at the register and fires sale.completed (whose payload always embeds the full
 * customer, reference section 6). The order shape is the sandbox's own: the reference does not show it.
 */
export function completeSale(world: DomainWorld, sale: NewSale): OrderRecord {
  const now = world.clock.iso();
  const customer =
    sale.customerId === null ? null : (world.state.shop.customers.get(sale.customerId) ?? null);
  const subtotal = sale.lines.reduce((total, line) => total + line.total_cents, 0);
  const order = world.state.orders.orders.insert((id) => ({
    object: 'order',
    id,
    number: `R-${String(10_000 + id)}`,
    status: 'completed',
    source: sale.source ?? 'pos',
    location_id: sale.locationId,
    customer_id: customer?.id ?? null,
    customer: customer ? { ...customer } : null,
    external_reference: null,
    lines: sale.lines.map((line) => ({ ...line })),
    subtotal_cents: subtotal,
    tax_cents: 0,
    total_cents: subtotal,
    created_at: now,
    updated_at: now,
  }));
  world.events.record('sale.completed', order);
  return order;
}
