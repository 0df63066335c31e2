import type { SandboxCore } from '../core.js';
import { isDate } from '../domain/dates.js';
import { productBySku } from '../domain/inventory.js';
import {
  cancelPurchaseOrder,
  createPurchaseOrder,
  type PurchaseLineInput,
  receivePurchaseOrder,
  submitPurchaseOrder,
  updatePurchaseOrder,
} from '../domain/purchasing.js';
import { apiError, invalidReference } from '../errors.js';
import { defaultLocationId, findVisible, requireWritableLocation } from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import { routeFor } from '../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../http/route.js';
import { type LineItemRequest, readLineItems } from './line-items.js';

/** 422 INVALID_REFERENCE for SKUs (and a vendor) the shop does not have. */
function resolveLines(
  core: SandboxCore,
  lines: readonly LineItemRequest[],
  vendorId: number | undefined,
): PurchaseLineInput[] {
  const problems: Record<string, string[]> = {};
  if (vendorId !== undefined && !core.state.catalog.vendors.get(vendorId))
    problems.vendor_id = ['is not a vendor of this shop'];
  const resolved = lines.map((line, index) => {
    const product = productBySku(core, line.sku);
    if (!product) problems[`lines[${index}].sku`] = ['no product has this SKU'];
    return { product: product!, qty: line.qty, unitCostCents: line.unitCents ?? product?.cost_cents ?? 0 };
  });
  if (Object.keys(problems).length > 0) throw invalidReference(problems);
  return resolved;
}

function readExpectedOn(reader: FieldReader): string | undefined {
  const value = reader.string('expected_on');
  if (value !== undefined && !isDate(value)) reader.fail('expected_on', 'must be a date, YYYY-MM-DD');
  return value;
}

function purchaseOrderAt(context: RouteContext) {
  return findVisible(
    context,
    context.sandbox.state.purchasing.purchaseOrders,
    pathId(context.params, 'purchase order'),
    'purchase order',
  );
}

function create(context: RouteContext) {
  const { sandbox, body } = context;
  const reader = FieldReader.body(body);
  const vendorId = reader.integer('vendor_id', { required: true });
  const locationId = reader.integer('location_id') ?? defaultLocationId(context);
  const channelOrderId = reader.string('channel_order_id') ?? null;
  const submit = reader.boolean('submit') ?? false;
  const note = reader.string('note') ?? null;
  const expectedOn = readExpectedOn(reader) ?? null;
  const lines = readLineItems(reader, body.lines, 'unit_cost_cents') ?? [];
  reader.done();
  requireWritableLocation(context, locationId);
  if (channelOrderId !== null) {
    const existing = sandbox.state.purchasing.purchaseOrders.find(
      (row) => row.channel_order_id === channelOrderId,
    );
    if (existing) {
      throw apiError('DUPLICATE_PURCHASE_ORDER', `channel_order_id ${channelOrderId} already exists`, {
        existing_id: existing.id,
      });
    }
  }
  const resolved = resolveLines(sandbox, lines, vendorId);
  const order = createPurchaseOrder(sandbox, {
    vendorId: vendorId!,
    locationId,
    channelOrderId,
    submit,
    lines: resolved,
    note,
    expectedOn,
  });
  return created(order);
}

const UPDATABLE = ['vendor_id', 'lines', 'note', 'expected_on'];

function update(context: RouteContext) {
  const { sandbox, body } = context;
  const order = purchaseOrderAt(context);
  const reader = FieldReader.body(body);
  for (const field of Object.keys(body)) {
    if (!UPDATABLE.includes(field)) reader.fail(field, 'is not writable through the API');
  }
  const vendorId = reader.integer('vendor_id');
  const note = Object.hasOwn(body, 'note') && body.note === null ? null : reader.string('note');
  const expectedOn =
    Object.hasOwn(body, 'expected_on') && body.expected_on === null ? null : readExpectedOn(reader);
  const lines = readLineItems(reader, body.lines, 'unit_cost_cents');
  reader.done();
  // Checks the vendor even when no lines are sent.
  const resolved = resolveLines(sandbox, lines ?? [], vendorId);
  const changes = { vendorId, lines: lines === undefined ? undefined : resolved, note, expectedOn };
  return ok(updatePurchaseOrder(sandbox, order, changes));
}

function receive(context: RouteContext) {
  const { body } = context;
  const reader = FieldReader.body(body);
  const allOutstanding = reader.boolean('all_outstanding') ?? false;
  const reference = reader.string('reference') ?? null;
  const lines = readLineItems(reader, body.lines, null);
  if (!allOutstanding && (lines === undefined || lines.length === 0)) {
    reader.fail('all_outstanding', 'send all_outstanding: true, or the lines to receive');
  }
  reader.done();
  const order = purchaseOrderAt(context);
  return ok(receivePurchaseOrder(context.sandbox, order, { allOutstanding, lines, reference }));
}

/** Purchase orders: create, change, submit, cancel, receive (reference section 4; shapes partly shown). */
export const purchaseOrderRoutes: readonly RouteDefinition[] = [
  { ...routeFor('purchaseOrders.create'), handle: create },
  { ...routeFor('purchaseOrders.update'), handle: update },
  {
    ...routeFor('purchaseOrders.submit'),
    handle: (context) => ok(submitPurchaseOrder(context.sandbox, purchaseOrderAt(context))),
  },
  {
    ...routeFor('purchaseOrders.cancel'),
    handle: (context) => ok(cancelPurchaseOrder(context.sandbox, purchaseOrderAt(context))),
  },
  {
    ...routeFor('purchaseOrders.receive'),
    handle: receive,
  },
];
