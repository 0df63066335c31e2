import type { SandboxCore } from '../core.js';
import { apiError } from '../errors.js';
import type { ProductRecord } from '../state/catalog.js';
import type { OrderRecord } from '../state/orders.js';
import { availableAt, moveStock } from './inventory.js';
import { touch } from './stamps.js';

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

function inStockUnits(core: SandboxCore, productId: number, locationId: number) {
  return core.state.inventory.units
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
export function checkStock(core: SandboxCore, order: NewProductOrder): void {
  const wanted = new Map<ProductRecord, number>();
  for (const line of order.lines) wanted.set(line.product, (wanted.get(line.product) ?? 0) + line.qty);
  for (const [product, qty] of wanted) {
    if (!product.track_inventory) continue;
    const available = product.is_serialized
      ? inStockUnits(core, product.id, order.locationId).length
      : availableAt(core, product.id, order.locationId);
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
  core: SandboxCore,
  input: NewProductOrder,
  event: 'order.created' | 'sale.completed',
): OrderRecord {
  const now = core.clock.iso();
  const customer =
    input.customerId === null ? null : (core.state.shop.customers.get(input.customerId) ?? null);
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
  const order = core.state.orders.orders.insert((id) => ({
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
  core.events.record(event, order);
  for (const line of input.lines) takeStock(core, order, line, input.status);
  return order;
}

function takeStock(
  core: SandboxCore,
  order: OrderRecord,
  line: ProductLine,
  status: 'completed' | 'held',
): void {
  const { product } = line;
  if (!product.track_inventory) return;
  const hold = status === 'held' || isTransferItem(product);
  if (product.is_serialized) {
    for (const unit of inStockUnits(core, product.id, order.location_id).slice(0, line.qty)) {
      unit.status = hold ? 'held' : 'sold';
      touch(unit, core.clock.nowMs());
      core.state.inventory.unitOrders.set(unit.id, order.id);
    }
  }
  moveStock(core, {
    product,
    locationId: order.location_id,
    onHandDelta: hold ? 0 : -line.qty,
    reservedDelta: hold ? line.qty : 0,
    reason: hold ? 'hold' : 'sale',
  });
}

/** Whether the order has a return against it (part or all of it refunded). */
export function isRefunded(core: SandboxCore, order: OrderRecord): boolean {
  return (
    order.status === 'refunded' ||
    core.state.returns.returns.find((row) => row.order_id === order.id) !== undefined
  );
}

/**
 * POST /v1/orders/{id}/void: 409 ALREADY_VOIDED, SALE_REFUNDED or FIREARM_ORDER, else the order is
 * voided, its stock comes back (reason void; a held order's reservation is released) and sale.voided
 * fires.
 */
export function voidOrder(core: SandboxCore, order: OrderRecord): OrderRecord {
  if (order.status === 'voided') throw apiError('ALREADY_VOIDED', `Order ${order.number} is already voided`);
  if (isRefunded(core, order)) {
    throw apiError('SALE_REFUNDED', `Order ${order.number} was refunded and cannot be voided`);
  }
  const products = order.lines.map((line) =>
    line.product_id === null ? undefined : core.state.catalog.products.get(line.product_id),
  );
  if (products.some((product) => product?.is_firearm)) {
    throw apiError('FIREARM_ORDER', 'Orders with firearm lines cannot be voided through the API');
  }
  const held = order.status === 'held';
  order.status = 'voided';
  touch(order, core.clock.nowMs());
  core.events.record('sale.voided', order);
  for (const [index, line] of order.lines.entries()) {
    const product = products[index];
    if (!product?.track_inventory) continue;
    if (product.is_serialized) releaseUnits(core, order, product.id);
    moveStock(core, {
      product,
      locationId: order.location_id,
      onHandDelta: held ? 0 : line.qty,
      reservedDelta: held ? -line.qty : 0,
      reason: 'void',
    });
  }
  return order;
}

function releaseUnits(core: SandboxCore, order: OrderRecord, productId: number): void {
  const { units, unitOrders } = core.state.inventory;
  for (const unit of units.filter(
    (row) => row.product_id === productId && unitOrders.get(row.id) === order.id,
  )) {
    unit.status = 'in_stock';
    touch(unit, core.clock.nowMs());
    unitOrders.delete(unit.id);
  }
}
