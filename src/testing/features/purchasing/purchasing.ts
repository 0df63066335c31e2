import { apiError, invalidReference, invalidState, validationError } from '../../errors.js';
import { dateOf } from '../../state/dates.js';
import { touch } from '../../state/stamps.js';
import type { ProductRecord } from '../inventory/catalog-state.js';
import { moveStock, productBySku } from '../inventory/inventory.js';
import type { DomainWorld } from '../world.js';
import type { PurchaseOrderLineRecord, PurchaseOrderRecord, ReceivingRecord } from './state.js';

/** One line as a request gives it, with its product looked up. */
export interface PurchaseLineInput {
  readonly product: ProductRecord;
  readonly qty: number;
  readonly unitCostCents: number;
}

function buildLines(world: DomainWorld, inputs: readonly PurchaseLineInput[]): PurchaseOrderLineRecord[] {
  const ids = world.state.purchasing.lineIds;
  return inputs.map((input) => ({
    object: 'purchase_order_line',
    id: ++ids.last,
    product_id: input.product.id,
    sku: input.product.sku,
    description: input.product.name,
    qty: input.qty,
    qty_received: 0,
    unit_cost_cents: input.unitCostCents,
  }));
}

function totalCost(lines: readonly PurchaseOrderLineRecord[]): number {
  return lines.reduce((total, line) => total + line.qty * line.unit_cost_cents, 0);
}

/** 422 EMPTY_PO: a PO with no lines cannot go to the vendor. */
export function requireLines(lineCount: number): void {
  if (lineCount === 0) throw apiError('EMPTY_PO', 'A purchase order with no lines cannot be submitted');
}

/** What POST /v1/purchase-orders creates; the route has checked vendor, location, SKUs and uniqueness. */
export interface NewPurchaseOrder {
  readonly vendorId: number;
  readonly locationId: number;
  readonly channelOrderId: string | null;
  readonly submit: boolean;
  readonly lines: readonly PurchaseLineInput[];
  readonly note: string | null;
  readonly expectedOn: string | null;
}

/** Creates a draft (purchase_order.created), submitted at once with `submit` (purchase_order.submitted). */
export function createPurchaseOrder(world: DomainWorld, input: NewPurchaseOrder): PurchaseOrderRecord {
  if (input.submit) requireLines(input.lines.length);
  const now = world.clock.iso();
  const lines = buildLines(world, input.lines);
  const order = world.state.purchasing.purchaseOrders.insert((id) => ({
    object: 'purchase_order',
    id,
    number: `PO-${String(1000 + id)}`,
    vendor_id: input.vendorId,
    location_id: input.locationId,
    channel_order_id: input.channelOrderId,
    status: 'draft',
    lines,
    total_cost_cents: totalCost(lines),
    note: input.note,
    ordered_on: dateOf(world.clock.nowMs()),
    expected_on: input.expectedOn,
    submitted_at: null,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
  }));
  world.events.record('purchase_order.created', order);
  if (input.submit) submitPurchaseOrder(world, order);
  return order;
}

/** What PATCH may change. vendor and lines only on a draft (409 PO_SUBMITTED once submitted). */
export interface PurchaseOrderChanges {
  readonly vendorId?: number;
  readonly lines?: readonly PurchaseLineInput[];
  readonly note?: string | null;
  readonly expectedOn?: string | null;
}

/** PATCH /v1/purchase-orders/{id}. The reference lists no event for it, so none fires. */
export function updatePurchaseOrder(
  world: DomainWorld,
  order: PurchaseOrderRecord,
  changes: PurchaseOrderChanges,
): PurchaseOrderRecord {
  if (order.status === 'cancelled') throw invalidState('purchase order', order.status, 'changed');
  const touchesVendorOrLines = changes.vendorId !== undefined || changes.lines !== undefined;
  if (touchesVendorOrLines && order.status !== 'draft') {
    const fields = [
      changes.vendorId !== undefined && 'vendor_id',
      changes.lines !== undefined && 'lines',
    ].filter(Boolean);
    throw apiError('PO_SUBMITTED', `The vendor and lines of a submitted purchase order cannot change`, {
      fields,
    });
  }
  if (changes.vendorId !== undefined) order.vendor_id = changes.vendorId;
  if (changes.lines !== undefined) {
    order.lines = buildLines(world, changes.lines);
    order.total_cost_cents = totalCost(order.lines);
  }
  if (changes.note !== undefined) order.note = changes.note;
  if (changes.expectedOn !== undefined) order.expected_on = changes.expectedOn;
  touch(order, world.clock.nowMs());
  return order;
}

/** draft -> submitted (purchase_order.submitted); 422 EMPTY_PO without lines, 409 INVALID_STATE otherwise. */
export function submitPurchaseOrder(world: DomainWorld, order: PurchaseOrderRecord): PurchaseOrderRecord {
  if (order.status !== 'draft') throw invalidState('purchase order', order.status, 'submitted');
  requireLines(order.lines.length);
  const now = world.clock.iso();
  Object.assign(order, { status: 'submitted', submitted_at: now });
  touch(order, world.clock.nowMs());
  world.events.record('purchase_order.submitted', order);
  return order;
}

/**
 * draft or submitted -> cancelled (purchase_order.cancelled). Once stock was received against it, or
 * when already cancelled, 409 INVALID_STATE (the sandbox's reading: received stock cannot be unordered).
 */
export function cancelPurchaseOrder(world: DomainWorld, order: PurchaseOrderRecord): PurchaseOrderRecord {
  if (order.status !== 'draft' && order.status !== 'submitted') {
    throw invalidState('purchase order', order.status, 'cancelled');
  }
  const now = world.clock.iso();
  Object.assign(order, { status: 'cancelled', cancelled_at: now });
  touch(order, world.clock.nowMs());
  world.events.record('purchase_order.cancelled', order);
  return order;
}

/** A serialized line the API does not receive: units are received one by one at the register. */
export interface SkippedLine {
  purchase_order_line_id: number;
  product_id: number;
  sku: string;
  qty_outstanding: number;
  reason: 'serialized';
}

/** A request to receive: every outstanding line, or the given lines (the sandbox's own field). */
export interface ReceiveRequest {
  readonly allOutstanding: boolean;
  readonly lines: readonly { readonly sku: string; readonly qty: number }[] | undefined;
  readonly reference: string | null;
}

function isSerialized(world: DomainWorld, line: PurchaseOrderLineRecord): boolean {
  return world.state.catalog.products.get(line.product_id)?.is_serialized ?? false;
}

function skippedLines(world: DomainWorld, order: PurchaseOrderRecord): SkippedLine[] {
  return order.lines
    .filter((line) => isSerialized(world, line) && line.qty_received < line.qty)
    .map((line) => ({
      purchase_order_line_id: line.id,
      product_id: line.product_id,
      sku: line.sku,
      qty_outstanding: line.qty - line.qty_received,
      reason: 'serialized',
    }));
}

/** The lines and quantities to receive, checked: 409 SERIALIZED for a named serialized line. */
function plan(world: DomainWorld, order: PurchaseOrderRecord, request: ReceiveRequest) {
  if (request.allOutstanding) {
    return order.lines
      .filter((line) => !isSerialized(world, line) && line.qty_received < line.qty)
      .map((line) => ({ line, qty: line.qty - line.qty_received }));
  }
  const problems: Record<string, string[]> = {};
  const picks = (request.lines ?? []).map((wanted, index) => {
    const line = order.lines.find((candidate) => candidate.sku === wanted.sku);
    if (!line) problems[`lines[${index}].sku`] = ['is not on this purchase order'];
    else if (isSerialized(world, line)) {
      throw apiError('SERIALIZED', `${line.sku} is serialized: receive its units at the register`, {
        sku: line.sku,
      });
    } else if (wanted.qty > line.qty - line.qty_received) {
      problems[`lines[${index}].qty`] = [`must be at most the ${line.qty - line.qty_received} outstanding`];
    }
    return { line: line!, qty: wanted.qty };
  });
  if (Object.keys(problems).length > 0) throw validationError(problems);
  return picks;
}

/**
 * POST /v1/purchase-orders/{id}/receive: adds stock for non-serialized lines (inventory.changed, reason
 * receive), posts a receiving (receiving.posted) and lists serialized lines in skipped. Nothing
 * non-serialized outstanding is 409 NOTHING_OUTSTANDING with details.skipped.
 */
/** Records a receiving posted against `order`: the stock it brought in, per purchase-order line. */
export function postReceiving(
  world: DomainWorld,
  order: PurchaseOrderRecord,
  reference: string | null,
  received: readonly { line: PurchaseOrderLineRecord; qty: number }[],
  postedAt: string,
): ReceivingRecord {
  return world.state.purchasing.receivings.insert((id) => ({
    object: 'receiving',
    id,
    number: `RCV-${String(5000 + id)}`,
    location_id: order.location_id,
    vendor_id: order.vendor_id,
    purchase_order_id: order.id,
    reference,
    status: 'posted',
    lines: received.map(({ line, qty }) => ({
      product_id: line.product_id,
      qty,
      unit_cost_cents: line.unit_cost_cents,
      purchase_order_line_id: line.id,
    })),
    posted_at: postedAt,
  }));
}

export function receivePurchaseOrder(
  world: DomainWorld,
  order: PurchaseOrderRecord,
  request: ReceiveRequest,
) {
  if (order.status !== 'submitted' && order.status !== 'partially_received') {
    throw invalidState('purchase order', order.status, 'received');
  }
  const skipped = skippedLines(world, order);
  const picks = plan(world, order, request);
  if (picks.length === 0) {
    throw apiError('NOTHING_OUTSTANDING', 'Nothing non-serialized is left to receive', {
      skipped,
    });
  }
  const now = world.clock.iso();
  for (const { line, qty } of picks) line.qty_received += qty;
  const done = order.lines.every((line) => line.qty_received >= line.qty);
  order.status = done ? 'received' : 'partially_received';
  touch(order, world.clock.nowMs());
  const receiving = postReceiving(world, order, request.reference, picks, now);
  world.events.record('receiving.posted', receiving);
  for (const { line, qty } of picks) {
    const product = world.state.catalog.products.get(line.product_id)!;
    if (product.track_inventory) {
      moveStock(world, { product, locationId: order.location_id, onHandDelta: qty, reason: 'receive' });
    }
  }
  return { object: 'purchase_order_receipt', receiving, purchase_order: order, skipped };
}

/** One line of a purchase order as asked for: a SKU, a quantity and maybe a unit cost (undefined: not sent). */
export interface PurchaseLineRequest {
  readonly sku: string;
  readonly qty: number;
  readonly unitCents: number | undefined;
}

/** 422 INVALID_REFERENCE for SKUs (and a vendor) the shop does not have. */
export function resolveLines(
  world: DomainWorld,
  lines: readonly PurchaseLineRequest[],
  vendorId: number | undefined,
): PurchaseLineInput[] {
  const problems: Record<string, string[]> = {};
  if (vendorId !== undefined && !world.state.catalog.vendors.get(vendorId))
    problems.vendor_id = ['is not a vendor of this shop'];
  const resolved = lines.map((line, index) => {
    const product = productBySku(world, line.sku);
    if (!product) problems[`lines[${index}].sku`] = ['no product has this SKU'];
    return { product: product!, qty: line.qty, unitCostCents: line.unitCents ?? product?.cost_cents ?? 0 };
  });
  if (Object.keys(problems).length > 0) throw invalidReference(problems);
  return resolved;
}

/** 409 DUPLICATE_PURCHASE_ORDER when another purchase order already has this channel_order_id. */
export function refuseDuplicateChannelOrder(world: DomainWorld, channelOrderId: string | null): void {
  if (channelOrderId === null) return;
  const existing = world.state.purchasing.purchaseOrders.find(
    (row) => row.channel_order_id === channelOrderId,
  );
  if (existing) {
    throw apiError('DUPLICATE_PURCHASE_ORDER', `channel_order_id ${channelOrderId} already exists`, {
      existing_id: existing.id,
    });
  }
}
