import { defaultLocationId, findVisible, requireWritableLocation } from '../../http/access.js';
import { pathId } from '../../http/fields.js';
import { routeFor } from '../../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../http/route.js';
import { bodyRoute } from '../../http/rules.js';
import { LINE_ITEM_RULES, lineItems } from '../sales/routes/line-items.js';
import {
  cancelPurchaseOrder,
  createPurchaseOrder,
  receivePurchaseOrder,
  refuseDuplicateChannelOrder,
  resolveLines,
  submitPurchaseOrder,
  updatePurchaseOrder,
} from './purchasing.js';

function purchaseOrderAt(context: RouteContext) {
  return findVisible(
    context,
    context.sandbox.state.purchasing.purchaseOrders,
    pathId(context.params, 'purchase order'),
    'purchase order',
  );
}

/**
 * The purchase-order fields the reference shows beside vendor, location, channel order and lines are the
 * sandbox's own: a note and the expected date. A line needs a sku and a quantity; its cost is never negative.
 */
const PURCHASE_LINES = {
  items: { properties: { ...LINE_ITEM_RULES, unit_cost_cents: { type: 'integer', minimum: 0 } } },
} as const;
const NOTE_AND_DATE = {
  note: { type: 'string', nullable: true },
  expected_on: { type: 'string', format: 'date', nullable: true },
} as const;

const create = bodyRoute(
  'purchaseOrders.create',
  { vendor_id: { required: true }, lines: PURCHASE_LINES, ...NOTE_AND_DATE },
  (context, body, fields) => {
    const { sandbox } = context;
    fields.done();
    const locationId = body.location_id ?? defaultLocationId(context);
    const channelOrderId = body.channel_order_id ?? null;
    requireWritableLocation(context, locationId);
    refuseDuplicateChannelOrder(sandbox, channelOrderId);
    const resolved = resolveLines(sandbox, lineItems(body.lines ?? []), body.vendor_id);
    const order = createPurchaseOrder(sandbox, {
      vendorId: body.vendor_id!,
      locationId,
      channelOrderId,
      submit: body.submit ?? false,
      lines: resolved,
      note: body.note ?? null,
      expectedOn: body.expected_on ?? null,
    });
    return created(order);
  },
);

const update = bodyRoute(
  'purchaseOrders.update',
  { lines: PURCHASE_LINES, ...NOTE_AND_DATE },
  (context, body, fields) => {
    const { sandbox } = context;
    const order = purchaseOrderAt(context);
    for (const field of fields.undescribed()) fields.fail(field, 'is not writable through the API');
    fields.done();
    // Checks the vendor even when no lines are sent.
    const resolved = resolveLines(sandbox, lineItems(body.lines ?? []), body.vendor_id);
    const changes = {
      vendorId: body.vendor_id,
      lines: body.lines === undefined ? undefined : resolved,
      note: body.note,
      expectedOn: body.expected_on,
    };
    return ok(updatePurchaseOrder(sandbox, order, changes));
  },
);

/** The lines to receive are the sandbox's own field (the reference shows all_outstanding and reference). */
const receive = bodyRoute(
  'purchaseOrders.receive',
  { lines: { type: 'array', items: { type: 'object', properties: LINE_ITEM_RULES } } },
  (context, body, fields) => {
    const allOutstanding = body.all_outstanding ?? false;
    // Lines that were sent but refused are reported as such; none at all need all_outstanding.
    const noLines = fields.has('lines') ? body.lines?.length === 0 : true;
    if (!allOutstanding && noLines) {
      fields.fail('all_outstanding', 'send all_outstanding: true, or the lines to receive');
    }
    fields.done();
    const order = purchaseOrderAt(context);
    const lines = body.lines === undefined ? undefined : lineItems(body.lines);
    const receipt = { allOutstanding, lines, reference: body.reference ?? null };
    return ok(receivePurchaseOrder(context.sandbox, order, receipt));
  },
);

/** Purchase orders: create, change, submit, cancel, receive (reference section 4; shapes partly shown). */
export const purchaseOrderRoutes: readonly RouteDefinition[] = [
  create,
  update,
  {
    ...routeFor('purchaseOrders.submit'),
    handle: (context) => ok(submitPurchaseOrder(context.sandbox, purchaseOrderAt(context))),
  },
  {
    ...routeFor('purchaseOrders.cancel'),
    handle: (context) => ok(cancelPurchaseOrder(context.sandbox, purchaseOrderAt(context))),
  },
  receive,
];
