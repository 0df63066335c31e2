import { productBySku } from '../domain/inventory.js';
import { effectivePrice } from '../domain/products.js';
import { checkStock, placeOrder, voidOrder } from '../domain/sales.js';
import { apiError, invalidReference } from '../errors.js';
import {
  defaultLocationId,
  findVisible,
  redactPayload,
  requireWritableLocation,
  viewerForKey,
} from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import { routeFor } from '../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../http/route.js';
import type { OrderRecord } from '../state/orders.js';
import { readLineItems } from './line-items.js';

/** Orders are answered as the key may see them: the embedded customer needs customers:read. */
function render(context: RouteContext, order: OrderRecord): OrderRecord {
  return redactPayload(order, viewerForKey(context.key));
}

/**
 * POST /v1/orders. The reference shows only external_reference; the sandbox takes location_id,
 * customer_id, status (completed or held) and lines of {sku, qty, unit_price_cents}. An API order fires
 * order.created (not sale.completed: the sale was paid on the partner's channel) and moves stock.
 */
function create(context: RouteContext) {
  const { sandbox, body } = context;
  const reader = FieldReader.body(body);
  const externalReference = reader.string('external_reference') ?? null;
  const locationId = reader.integer('location_id') ?? defaultLocationId(context);
  const customerId = reader.integer('customer_id') ?? null;
  const status = (reader.string('status', { oneOf: ['completed', 'held'] }) ?? 'completed') as
    | 'completed'
    | 'held';
  reader.string('note');
  const lines = readLineItems(reader, body.lines, 'unit_price_cents');
  if (lines === undefined || lines.length === 0) reader.fail('lines', 'must list at least one line');
  reader.done();
  requireWritableLocation(context, locationId);
  if (externalReference !== null) {
    const existing = sandbox.state.orders.orders.find((row) => row.external_reference === externalReference);
    // Natural idempotency: the same API order again (200); another channel's order with it is a conflict.
    if (existing?.source === 'api') return ok(render(context, existing));
    if (existing) {
      throw apiError(
        'EXTERNAL_REFERENCE_TAKEN',
        `external_reference ${externalReference} belongs to an order from another channel`,
      );
    }
  }
  const problems: Record<string, string[]> = {};
  if (customerId !== null && !sandbox.state.shop.customers.get(customerId))
    problems.customer_id = ['is not a customer of this shop'];
  const productLines = lines!.map((line, index) => {
    const product = productBySku(sandbox, line.sku);
    if (!product) problems[`lines[${index}].sku`] = ['no product has this SKU'];
    return {
      product: product!,
      qty: line.qty,
      unitPriceCents: line.unitCents ?? (product ? effectivePrice(product, sandbox.clock.nowMs()) : 0),
    };
  });
  if (Object.keys(problems).length > 0) throw invalidReference(problems);
  const order = { locationId, customerId, lines: productLines, status, source: 'api', externalReference };
  checkStock(sandbox, order);
  return created(render(context, placeOrder(sandbox, order, 'order.created')));
}

/** POST /v1/orders and POST /v1/orders/{id}/void (reference section 4). */
export const orderRoutes: readonly RouteDefinition[] = [
  { ...routeFor('orders.create'), handle: create },
  {
    ...routeFor('orders.void'),
    handle: (context) => {
      const order = findVisible(
        context,
        context.sandbox.state.orders.orders,
        pathId(context.params, 'order'),
        'order',
      );
      return ok(render(context, voidOrder(context.sandbox, order)));
    },
  },
];
