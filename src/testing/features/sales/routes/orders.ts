import { defaultLocationId, findVisible, requireWritableLocation } from '../../../http/access.js';
import { FieldReader, pathId } from '../../../http/fields.js';
import { routeFor } from '../../../http/operations.js';
import { redactPayload, viewerForKey } from '../../../http/payload-view.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import type { OrderRecord } from '../orders-state.js';
import { createApiOrder, voidOrder } from '../sales.js';
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
  const { order, replayed } = createApiOrder(sandbox, {
    locationId,
    customerId,
    status,
    lines: lines!,
    externalReference,
  });
  // Natural idempotency: the same API order again answers 200.
  return replayed ? ok(render(context, order)) : created(render(context, order));
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
