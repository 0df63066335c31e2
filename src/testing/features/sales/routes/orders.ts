import { redactPayload } from '../../../events/payload-view.js';
import { defaultLocationId, findVisible, requireWritableLocation } from '../../../http/access.js';
import { pathId } from '../../../http/fields.js';
import { routeFor } from '../../../http/operations.js';
import { viewerForKey } from '../../../http/payload-view.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute } from '../../../http/rules.js';
import type { OrderRecord } from '../orders-state.js';
import { createApiOrder, voidOrder } from '../sales.js';
import { LINE_ITEM_RULES, lineItems } from './line-items.js';

/** Orders are answered as the key may see them: the embedded customer needs customers:read. */
function render(context: RouteContext, order: OrderRecord): OrderRecord {
  return redactPayload(order, viewerForKey(context.key));
}

/**
 * POST /v1/orders. The reference shows only external_reference; the sandbox takes location_id,
 * customer_id, status (completed or held), a note and lines of {sku, qty, unit_price_cents}. An API order
 * fires order.created (not sale.completed: the sale was paid on the partner's channel) and moves stock.
 */
const create = bodyRoute(
  'orders.create',
  {
    location_id: { type: 'integer' },
    customer_id: { type: 'integer' },
    status: { type: 'string', enum: ['completed', 'held'] },
    note: { type: 'string' },
    lines: {
      type: 'array',
      required: true,
      minItems: 1,
      items: {
        type: 'object',
        properties: { ...LINE_ITEM_RULES, unit_price_cents: { type: 'integer', minimum: 0 } },
      },
    },
  },
  (context, body, fields) => {
    fields.done();
    const locationId = body.location_id ?? defaultLocationId(context);
    requireWritableLocation(context, locationId);
    const { order, replayed } = createApiOrder(context.sandbox, {
      locationId,
      customerId: body.customer_id ?? null,
      status: body.status ?? 'completed',
      lines: lineItems(body.lines!),
      externalReference: body.external_reference ?? null,
    });
    // Natural idempotency: the same API order again answers 200.
    return replayed ? ok(render(context, order)) : created(render(context, order));
  },
);

/** POST /v1/orders and POST /v1/orders/{id}/void (reference section 4). */
export const orderRoutes: readonly RouteDefinition[] = [
  create,
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
