import { apiError, invalidReference } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import type { ProductRecord } from '../inventory/catalog-state.js';
import { availableAt, moveStock, productBySku } from '../inventory/inventory.js';
import { effectivePrice } from '../inventory/products.js';
import type { DomainWorld } from '../world.js';
import type { OrderRecord } from './orders-state.js';

/** One product line of an order being placed. */
export interface ProductLine {
  readonly product: ProductRecord;
  readonly qty: number;
  readonly unitPriceCents: number;
}

/** An order of catalog products, from the API (order.created) or the register (sale.completed). */
export interface NewProductOrder {
  readonly locationId: number;
  readonly customerId: number | null;
  readonly lines: readonly ProductLine[];
  /** completed takes stock now; held reserves it (the reference names both statuses for order.created). */
  readonly status: 'completed' | 'held';
  readonly source: string;
  readonly externalReference: string | null;
}

/** Firearms are sold pending the transfer at the counter: the unit is held, not gone. */
function isTransferItem(product: ProductRecord): boolean {
  return product.is_firearm && product.is_serialized;
}

function inStockUnits(world: DomainWorld, productId: number, locationId: number) {
  return world.state.inventory.units
    .filter(
      (unit) =>
        unit.product_id === productId && unit.location_id === locationId && unit.status === 'in_stock',
    )
    .sort((a, b) => a.id - b.id);
}

/**
 * 409 INSUFFICIENT_STOCK when a line wants more than is available (the sandbox shop never allows
 * negative stock). Lines of the same product are counted together.
 */
export function checkStock(world: DomainWorld, order: NewProductOrder): void {
  const wanted = new Map<ProductRecord, number>();
  for (const line of order.lines) wanted.set(line.product, (wanted.get(line.product) ?? 0) + line.qty);
  for (const [product, qty] of wanted) {
    if (!product.track_inventory) continue;
    const available = product.is_serialized
      ? inStockUnits(world, product.id, order.locationId).length
      : availableAt(world, product.id, order.locationId);
    if (available < qty) {
      throw apiError('INSUFFICIENT_STOCK', `Only ${available} of ${product.sku} available`, {
        sku: product.sku,
        available,
        requested: qty,
      });
    }
  }
}

/**
 * Stores the order, fires its event, then moves stock (inventory.changed per line): completed lines
 * leave stock (reason sale); held lines and firearms awaiting transfer are reserved (qty_delta 0, reason
 * hold). Every check has passed.
 */
export function placeOrder(
  world: DomainWorld,
  input: NewProductOrder,
  event: 'order.created' | 'sale.completed',
): OrderRecord {
  const now = world.clock.iso();
  const customer =
    input.customerId === null ? null : (world.state.shop.customers.get(input.customerId) ?? null);
  const lines = input.lines.map((line) => ({
    type: 'product',
    product_id: line.product.id,
    description: line.product.name,
    qty: line.qty,
    unit_price_cents: line.unitPriceCents,
    total_cents: line.unitPriceCents * line.qty,
  }));
  const subtotal = lines.reduce((total, line) => total + line.total_cents, 0);
  const transfer = input.lines.some((line) => isTransferItem(line.product));
  const order = world.state.orders.orders.insert((id) => ({
    object: 'order',
    id,
    number: `R-${String(10_000 + id)}`,
    // Firearm sales arrive with status awaiting_transfer (reference section 6).
    status: input.status === 'completed' && transfer ? 'awaiting_transfer' : input.status,
    source: input.source,
    location_id: input.locationId,
    customer_id: customer?.id ?? null,
    customer: customer ? { ...customer } : null,
    external_reference: input.externalReference,
    lines,
    subtotal_cents: subtotal,
    tax_cents: 0,
    total_cents: subtotal,
    created_at: now,
    updated_at: now,
  }));
  world.events.record(event, order);
  for (const line of input.lines) takeStock(world, order, line, input.status);
  return order;
}

function takeStock(
  world: DomainWorld,
  order: OrderRecord,
  line: ProductLine,
  status: 'completed' | 'held',
): void {
  const { product } = line;
  if (!product.track_inventory) return;
  const hold = status === 'held' || isTransferItem(product);
  if (product.is_serialized) {
    for (const unit of inStockUnits(world, product.id, order.location_id).slice(0, line.qty)) {
      unit.status = hold ? 'held' : 'sold';
      touch(unit, world.clock.nowMs());
      world.state.inventory.unitOrders.set(unit.id, order.id);
    }
  }
  moveStock(world, {
    product,
    locationId: order.location_id,
    onHandDelta: hold ? 0 : -line.qty,
    reservedDelta: hold ? line.qty : 0,
    reason: hold ? 'hold' : 'sale',
  });
}

/** Whether the order has a return against it (part or all of it refunded). */
export function isRefunded(world: DomainWorld, order: OrderRecord): boolean {
  return (
    order.status === 'refunded' ||
    world.state.returns.returns.find((row) => row.order_id === order.id) !== undefined
  );
}

/**
 * POST /v1/orders/{id}/void: 409 ALREADY_VOIDED, SALE_REFUNDED or FIREARM_ORDER, else the order is
 * voided, its stock comes back (reason void; a held order's reservation is released) and sale.voided
 * fires.
 */
export function voidOrder(world: DomainWorld, order: OrderRecord): OrderRecord {
  if (order.status === 'voided') throw apiError('ALREADY_VOIDED', `Order ${order.number} is already voided`);
  if (isRefunded(world, order)) {
    throw apiError('SALE_REFUNDED', `Order ${order.number} was refunded and cannot be voided`);
  }
  const products = order.lines.map((line) =>
    line.product_id === null ? undefined : world.state.catalog.products.get(line.product_id),
  );
  if (products.some((product) => product?.is_firearm)) {
    throw apiError('FIREARM_ORDER', 'Orders with firearm lines cannot be voided through the API');
  }
  const held = order.status === 'held';
  order.status = 'voided';
  touch(order, world.clock.nowMs());
  world.events.record('sale.voided', order);
  for (const [index, line] of order.lines.entries()) {
    const product = products[index];
    if (!product?.track_inventory) continue;
    if (product.is_serialized) releaseUnits(world, order, product.id);
    moveStock(world, {
      product,
      locationId: order.location_id,
      onHandDelta: held ? 0 : line.qty,
      reservedDelta: held ? -line.qty : 0,
      reason: 'void',
    });
  }
  return order;
}

function releaseUnits(world: DomainWorld, order: OrderRecord, productId: number): void {
  const { units, unitOrders } = world.state.inventory;
  for (const unit of units.filter(
    (row) => row.product_id === productId && unitOrders.get(row.id) === order.id,
  )) {
    unit.status = 'in_stock';
    touch(unit, world.clock.nowMs());
    unitOrders.delete(unit.id);
  }
}

/** An order as the API asks for it: fields read, lines as SKUs (a unit price undefined: the product's). */
export interface ApiOrderRequest {
  readonly locationId: number;
  readonly customerId: number | null;
  readonly status: 'completed' | 'held';
  readonly lines: readonly {
    readonly sku: string;
    readonly qty: number;
    readonly unitCents: number | undefined;
  }[];
  readonly externalReference: string | null;
}

/**
 * POST /v1/orders's rule: the same external_reference again is the API order it made (`replayed`), another
 * channel's is EXTERNAL_REFERENCE_TAKEN; unknown customer or SKUs are INVALID_REFERENCE; stock is checked,
 * then the order is placed (order.created, stock moves).
 */
export function createApiOrder(
  world: DomainWorld,
  input: ApiOrderRequest,
): { order: OrderRecord; replayed: boolean } {
  const { locationId, customerId, status, externalReference } = input;
  if (externalReference !== null) {
    const existing = world.state.orders.orders.find((row) => row.external_reference === externalReference);
    // Natural idempotency: the same API order again (200); another channel's order with it is a conflict.
    if (existing?.source === 'api') return { order: existing, replayed: true };
    if (existing) {
      throw apiError(
        'EXTERNAL_REFERENCE_TAKEN',
        `external_reference ${externalReference} belongs to an order from another channel`,
      );
    }
  }
  const problems: Record<string, string[]> = {};
  if (customerId !== null && !world.state.shop.customers.get(customerId))
    problems.customer_id = ['is not a customer of this shop'];
  const productLines = input.lines.map((line, index) => {
    const product = productBySku(world, line.sku);
    if (!product) problems[`lines[${index}].sku`] = ['no product has this SKU'];
    return {
      product: product!,
      qty: line.qty,
      unitPriceCents: line.unitCents ?? (product ? effectivePrice(product, world.clock.nowMs()) : 0),
    };
  });
  if (Object.keys(problems).length > 0) throw invalidReference(problems);
  const order = { locationId, customerId, lines: productLines, status, source: 'api', externalReference };
  checkStock(world, order);
  return { order: placeOrder(world, order, 'order.created'), replayed: false };
}
