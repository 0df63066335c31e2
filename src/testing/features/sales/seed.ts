import { HELD_GLOCK_UNIT } from '../inventory/seed.js';
import type { ReturnLineRecord, ReturnRecord } from '../returns/state.js';
import { DAY_MS, HOUR_MS, isoAt, type SeedContext } from '../seed-context.js';
import type { DomainWorld } from '../world.js';
import type { OrderLine, OrderRecord } from './orders-state.js';

/** An order written straight into state (seeds record no events and move no stock: levels already agree). */
export function insertSeedOrder(
  world: DomainWorld,
  order: Pick<
    OrderRecord,
    'status' | 'source' | 'location_id' | 'customer_id' | 'external_reference' | 'lines' | 'created_at'
  >,
): OrderRecord {
  const customer =
    order.customer_id === null ? null : (world.state.shop.customers.get(order.customer_id) ?? null);
  const subtotal = order.lines.reduce((total, line) => total + line.total_cents, 0);
  return world.state.orders.orders.insert((id) => ({
    object: 'order',
    id,
    number: `R-${String(10_000 + id)}`,
    ...order,
    customer: customer ? { ...customer } : null,
    subtotal_cents: subtotal,
    tax_cents: 0,
    total_cents: subtotal,
    updated_at: order.created_at,
  }));
}

/** A product line of catalog product `productId`. */
export function productLine(world: DomainWorld, productId: number, qty: number): OrderLine {
  const product = world.state.catalog.products.get(productId)!;
  return {
    type: 'product',
    product_id: product.id,
    description: product.name,
    qty,
    unit_price_cents: product.price_cents,
    total_cents: product.price_cents * qty,
  };
}

/** The seeded orders by role, so other seeders (card transactions, returns) can point at them. */
export interface SeededOrders {
  readonly refunded: OrderRecord;
  readonly voidable: OrderRecord;
  readonly firearm: OrderRecord;
  readonly voided: OrderRecord;
  readonly storefront: OrderRecord;
  readonly creditReturn: OrderRecord;
}

/**
 * Register and online-store orders covering each void outcome (voidable, FIREARM_ORDER, ALREADY_VOIDED,
 * SALE_REFUNDED), an online-store order whose external_reference an API order may not reuse, and the
 * returns of both sources.
 */
export function seedSales(context: SeedContext): SeededOrders {
  const { world } = context;
  const at = (days: number, hours = 0) => isoAt(context, -days * DAY_MS - hours * HOUR_MS);
  const order = (
    locationId: number,
    customerId: number,
    lines: OrderLine[],
    created: string,
    extra: Partial<OrderRecord> = {},
  ) =>
    insertSeedOrder(world, {
      status: 'completed',
      source: 'pos',
      location_id: locationId,
      customer_id: customerId,
      external_reference: null,
      lines,
      created_at: created,
      ...extra,
    });
  const orders: SeededOrders = {
    refunded: order(1, 1, [productLine(world, 1, 2), productLine(world, 4, 1)], at(12, 3)),
    voidable: order(1, 2, [productLine(world, 3, 1)], at(0, 2)),
    firearm: order(1, 3, [productLine(world, 8, 1)], at(2, 5), { status: 'awaiting_transfer' }),
    voided: order(2, 4, [productLine(world, 6, 1)], at(6, 1), { status: 'voided' }),
    storefront: order(1, 5, [productLine(world, 2, 1)], at(3, 8), {
      source: 'storefront',
      external_reference: 'SHOP-1001',
    }),
    creditReturn: order(2, 6, [productLine(world, 5, 1)], at(20, 4)),
  };
  world.state.inventory.unitOrders.set(HELD_GLOCK_UNIT, orders.firearm.id);
  seedReturns(context, orders);
  return orders;
}

function returnLine(
  world: DomainWorld,
  productId: number,
  qty: number,
  orderLineId: number | null,
  condition: 'restock' | 'damaged',
): ReturnLineRecord {
  const product = world.state.catalog.products.get(productId)!;
  return {
    object: 'return_line',
    id: ++world.state.returns.lineIds.last,
    order_line_id: orderLineId,
    product_id: product.id,
    sku: product.sku,
    description: product.name,
    qty,
    unit_price_cents: product.price_cents,
    tax_cents: 0,
    line_total_cents: product.price_cents * qty,
    condition,
    restocked: condition === 'restock',
  };
}

type ReturnSeed = Omit<
  ReturnRecord,
  'object' | 'id' | 'number' | 'items_cents' | 'tax_cents' | 'total_cents'
>;

function insertReturn(world: DomainWorld, seed: ReturnSeed): ReturnRecord {
  const items = seed.lines.reduce((total, line) => total + line.line_total_cents, 0);
  return world.state.returns.returns.insert((id) => ({
    object: 'return',
    id,
    number: `RT-${String(2000 + id)}`,
    ...seed,
    items_cents: items,
    tax_cents: 0,
    total_cents: items - seed.restock_fee_cents,
  }));
}

/**
 * Returns of both sources. Order lines have no ids of their own in the sandbox's order shape, so
 * order_line_id numbers the line within its order (1-based): a guess at a field the reference only names.
 */
function seedReturns(context: SeedContext, orders: SeededOrders): void {
  const { world } = context;
  insertReturn(world, {
    source: 'sale',
    order_id: orders.refunded.id,
    storefront_order_id: null,
    location_id: 1,
    customer_id: 1,
    settlement: 'refund',
    refund_tender: 'card',
    restock_fee_cents: 0,
    reason: 'Bought the wrong size',
    lines: [returnLine(world, 4, 1, 2, 'restock')],
    created_at: isoAt(context, -10 * DAY_MS),
  });
  insertReturn(world, {
    source: 'sale',
    order_id: orders.creditReturn.id,
    storefront_order_id: null,
    location_id: 2,
    customer_id: 6,
    settlement: 'store_credit',
    refund_tender: 'store_credit',
    restock_fee_cents: 0,
    reason: 'Case arrived cracked',
    lines: [returnLine(world, 5, 1, 1, 'damaged')],
    created_at: isoAt(context, -18 * DAY_MS),
  });
  insertReturn(world, {
    source: 'online',
    order_id: null,
    storefront_order_id: 'SF-88123',
    location_id: 1,
    customer_id: 7,
    settlement: 'refund',
    refund_tender: 'original_payment',
    restock_fee_cents: 500,
    reason: 'Ordered two boxes by mistake',
    lines: [returnLine(world, 2, 2, null, 'restock')],
    created_at: isoAt(context, -4 * DAY_MS),
  });
  insertReturn(world, {
    source: 'online',
    order_id: null,
    storefront_order_id: 'SF-88140',
    location_id: 1,
    customer_id: 8,
    settlement: 'exchange',
    refund_tender: 'none',
    restock_fee_cents: 0,
    reason: 'Exchanged for tinted lenses',
    lines: [returnLine(world, 7, 1, null, 'restock')],
    created_at: isoAt(context, -1 * DAY_MS),
  });
}
