import { SandboxUsageError } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import { moveStock } from '../inventory/inventory.js';
import { moveCredit } from '../sales/accounts.js';
import type { DomainWorld } from '../world.js';
import type { ReturnLineRecord, ReturnRecord } from './state.js';

/** What `sandbox.register.returnSale` takes back. */
export interface ReturnSaleOptions {
  /** Lines by position in the order (1-based) and quantity. @default every product line, whole */
  lines?: readonly { orderLine: number; qty?: number; condition?: 'restock' | 'damaged' }[];
  /** refund (money back) or store_credit. @default 'refund' */
  settlement?: 'refund' | 'store_credit';
  /** @default 'cash' for a refund */
  refundTender?: string;
  /** @default 'Changed their mind' */
  reason?: string;
}

/**
 * A return at the counter of a completed sale: return.created, then sale.refunded (the order, refunded
 * once every line is back), inventory.changed for each restocked line (reason return), and
 * store_credit.changed when settled in store credit. Serialized products (firearms) are not taken back.
 */
export function returnSale(
  world: DomainWorld,
  orderId: number,
  options: ReturnSaleOptions = {},
): ReturnRecord {
  const order = world.state.orders.orders.get(orderId);
  if (!order) throw new SandboxUsageError(`No order ${orderId}`);
  if (order.status !== 'completed') {
    throw new SandboxUsageError(
      `Order ${order.number} is ${order.status}: only a completed sale can be returned`,
    );
  }
  if (order.customer_id === null)
    throw new SandboxUsageError(`Order ${order.number} is a walk-in sale: a return needs its customer`);
  const returned = (index: number) =>
    world.state.returns.returns
      .filter((row) => row.order_id === order.id)
      .flatMap((row) => row.lines)
      .filter((line) => line.order_line_id === index + 1)
      .reduce((total, line) => total + line.qty, 0);
  const wanted: NonNullable<ReturnSaleOptions['lines']> =
    options.lines ??
    order.lines
      .map((line, index) => ({ orderLine: index + 1, qty: line.qty - returned(index) }))
      .filter((line) => line.qty > 0);
  if (wanted.length === 0) throw new SandboxUsageError('returnSale needs at least one line');
  const lines: ReturnLineRecord[] = wanted.map((want) => {
    const line = order.lines[want.orderLine - 1];
    const product = line?.product_id == null ? undefined : world.state.catalog.products.get(line.product_id);
    if (!line || !product)
      throw new SandboxUsageError(`Order ${order.number} has no product line ${want.orderLine}`);
    if (product.is_serialized)
      throw new SandboxUsageError(`${product.name} is serialized: the sandbox takes no firearms back`);
    const left = line.qty - returned(want.orderLine - 1);
    const qty = want.qty ?? left;
    if (!Number.isSafeInteger(qty) || qty < 1 || qty > left) {
      throw new SandboxUsageError(
        `qty of line ${want.orderLine} must be 1 to ${left} (what is not back yet)`,
      );
    }
    const condition = want.condition ?? 'restock';
    return {
      object: 'return_line',
      id: ++world.state.returns.lineIds.last,
      order_line_id: want.orderLine,
      product_id: product.id,
      sku: product.sku,
      description: line.description,
      qty,
      unit_price_cents: line.unit_price_cents,
      tax_cents: 0,
      line_total_cents: line.unit_price_cents * qty,
      condition,
      restocked: condition === 'restock' && product.track_inventory,
    };
  });
  const settlement = options.settlement ?? 'refund';
  const items = lines.reduce((total, line) => total + line.line_total_cents, 0);
  const record = world.state.returns.returns.insert((id) => ({
    object: 'return',
    id,
    number: `RT-${String(2000 + id)}`,
    source: 'sale',
    order_id: order.id,
    storefront_order_id: null,
    location_id: order.location_id,
    customer_id: order.customer_id!,
    settlement,
    refund_tender: settlement === 'store_credit' ? 'store_credit' : (options.refundTender ?? 'cash'),
    items_cents: items,
    tax_cents: 0,
    restock_fee_cents: 0,
    total_cents: items,
    reason: options.reason ?? 'Changed their mind',
    lines,
    created_at: world.clock.iso(),
  }));
  world.events.record('return.created', record);
  if (order.lines.every((line, index) => line.product_id === null || returned(index) >= line.qty)) {
    order.status = 'refunded';
  }
  touch(order, world.clock.nowMs());
  world.events.record('sale.refunded', order);
  for (const line of lines) {
    if (!line.restocked) continue;
    const product = world.state.catalog.products.get(line.product_id)!;
    moveStock(world, { product, locationId: order.location_id, onHandDelta: line.qty, reason: 'return' });
  }
  if (settlement === 'store_credit')
    moveCredit(world, order.customer_id!, 'refunded', items, `Return ${record.number}`);
  return record;
}
