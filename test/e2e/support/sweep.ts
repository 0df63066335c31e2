// One successful call of every operation in the spec, in an order that makes each possible (a purchase order
// is created before it is submitted), as data: the conformance test runs it through ShopClient with a full
// key, again with a key that has no permissions, and with unknown ids. An operation without a step here gets
// one from its spec example, run last (`derivedStep`): its ids must exist in a fresh sandbox.

import { type OperationId, operations } from '../../../src/generated/operations.js';
import type { RequestParams, ShopClient } from '../../../src/index.js';
import { exampleArguments, type SpecOperation, specOperations } from '../../support/spec-operations.js';
import { at } from './harness.js';

/** Ids created along the way, for the steps that act on them. */
export type SweepIds = Record<string, number>;

/** One call of one operation. */
export interface SweepStep {
  readonly id: OperationId;
  readonly params: (ids: SweepIds) => RequestParams;
  /** Keeps what later steps need from the answer. */
  readonly keep?: (data: { id?: number }, ids: SweepIds) => void;
}

const lane = (resourceId: number, hour: number) => ({
  resource_ids: [resourceId],
  starts_at: at(hour, 6),
  ends_at: at(hour + 1, 6),
  party_size: 1,
  customer_id: 1,
});

const keepAs =
  (name: string) =>
  (data: { id?: number }, ids: SweepIds): void => {
    ids[name] = data.id!;
  };

const onPath = (name: string) => (ids: SweepIds) => ({ path: { id: ids[name] } });

// Bodies of the endpoints the reference names without a shape follow the sandbox's documented guesses
// (docs/testing.md, "What the sandbox cannot know: the shop endpoints").
const HAND_STEPS: readonly SweepStep[] = [
  { id: 'range.resources.list', params: () => ({ query: { type: 'lane' } }) },
  { id: 'range.classes.list', params: () => ({}) },
  { id: 'range.sessions.list', params: () => ({}) },
  { id: 'range.reservations.list', params: () => ({ query: { status: 'booked' } }) },
  { id: 'range.availability.list', params: () => ({ query: { starts_at: at(1, 6), ends_at: at(2, 6) } }) },
  { id: 'range.reservations.create', params: () => ({ body: lane(1, 1) }), keep: keepAs('visit') },
  { id: 'range.reservations.retrieve', params: onPath('visit') },
  { id: 'range.reservations.checkIn', params: onPath('visit') },
  { id: 'range.reservations.create', params: () => ({ body: lane(2, 1) }), keep: keepAs('absent') },
  { id: 'range.reservations.markNoShow', params: onPath('absent') },
  { id: 'range.reservations.create', params: () => ({ body: lane(3, 1) }), keep: keepAs('called_off') },
  {
    id: 'range.reservations.cancel',
    params: (ids) => ({ path: { id: ids.called_off }, body: { reason: 'Weather' } }),
  },
  { id: 'range.rentals.list', params: () => ({}) },
  { id: 'range.rentals.retrieve', params: () => ({ path: { id: 1 } }) },
  { id: 'range.rentalCheckouts.list', params: () => ({ query: { open: true } }) },
  { id: 'membershipPlans.list', params: () => ({}) },
  { id: 'memberships.list', params: () => ({}) },
  {
    id: 'memberships.create',
    params: () => ({ body: { customer_id: 5, plan_id: 1, billing_method: 'counter', paid: true } }),
    keep: keepAs('membership'),
  },
  { id: 'memberships.retrieve', params: onPath('membership') },
  {
    id: 'memberships.useGuestPass',
    params: (ids) => ({ path: { id: ids.membership }, body: { note: 'Sam, a guest' } }),
  },
  {
    id: 'memberships.cancel',
    params: (ids) => ({ path: { id: ids.membership }, body: { reason: 'Moving', at_period_end: false } }),
  },
  { id: 'cardTransactions.list', params: () => ({}) },
  { id: 'cardTransactions.retrieve', params: () => ({ path: { id: 1 } }) },
  { id: 'returns.list', params: () => ({}) },
  { id: 'returns.retrieve', params: () => ({ path: { id: 1 } }) },
  { id: 'events.list', params: () => ({}) },
  { id: 'locations.list', params: () => ({}) },
  { id: 'locations.update', params: () => ({ path: { id: 1 }, body: { phone: '+12085559999' } }) },
  { id: 'products.list', params: () => ({ query: { include: 'inventory' } }) },
  {
    id: 'products.update',
    params: () => ({ path: { id: 1 }, body: { price_cents: 2999, reorder_qty: 24 } }),
  },
  { id: 'inventory.list', params: () => ({}) },
  { id: 'inventory.listSerialized', params: () => ({ query: { product_id: 8 } }) },
  {
    id: 'inventory.adjust',
    params: () => ({ body: { sku: 'AMMO-FED-9MM-50', location_id: 1, qty_delta: 5, reason: 'receive' } }),
  },
  {
    id: 'inventory.set',
    params: () => ({ body: { sku: 'AMMO-FED-9MM-50', location_id: 1, qty_on_hand: 60 } }),
  },
  {
    id: 'purchaseOrders.create',
    params: () => ({
      body: { vendor_id: 1, location_id: 1, lines: [{ sku: 'TGT-BC-SNC12', qty: 10, unit_cost_cents: 900 }] },
    }),
    keep: keepAs('po'),
  },
  { id: 'purchaseOrders.update', params: (ids) => ({ path: { id: ids.po }, body: { note: 'Rush' } }) },
  { id: 'purchaseOrders.submit', params: onPath('po') },
  {
    id: 'purchaseOrders.receive',
    params: (ids) => ({ path: { id: ids.po }, body: { all_outstanding: true, reference: 'PS-77' } }),
  },
  {
    id: 'purchaseOrders.create',
    params: () => ({ body: { vendor_id: 2, lines: [{ sku: 'CLN-HOP-UNIV', qty: 4 }] } }),
    keep: keepAs('unwanted_po'),
  },
  { id: 'purchaseOrders.cancel', params: onPath('unwanted_po') },
  {
    id: 'orders.create',
    params: () => ({
      body: { external_reference: 'E2E-ORDER-1', location_id: 1, lines: [{ sku: 'ACC-EYE-CLR', qty: 1 }] },
    }),
    keep: keepAs('order'),
  },
  { id: 'orders.void', params: onPath('order') },
  { id: 'customers.account.retrieve', params: () => ({ path: { id: 2 } }) },
  {
    id: 'customers.account.payments.create',
    params: () => ({ path: { id: 2 }, body: { amount_cents: 1000, tender: 'check', reference: 'CHK-1' } }),
  },
  { id: 'customers.storeCredit.retrieve', params: () => ({ path: { id: 1 } }) },
  { id: 'customers.storeCredit.issue', params: () => ({ path: { id: 1 }, body: { amount_cents: 500 } }) },
  { id: 'customers.storeCredit.redeem', params: () => ({ path: { id: 1 }, body: { amount_cents: 200 } }) },
  { id: 'storeCredit.list', params: () => ({}) },
  { id: 'invoices.list', params: () => ({}) },
  { id: 'invoices.retrieve', params: () => ({ path: { id: 1 } }) },
  { id: 'accountPayments.list', params: () => ({}) },
  { id: 'giftCertificates.issue', params: () => ({ body: { amount_cents: 5000 } }), keep: keepAs('gift') },
  {
    id: 'giftCertificates.redeem',
    params: (ids) => ({ path: { id: ids.gift }, body: { amount_cents: 1000 } }),
  },
  { id: 'giftCertificates.reverse', params: (ids) => ({ path: { id: ids.gift }, body: {} }) },
  {
    id: 'giftCertificates.reload',
    params: (ids) => ({ path: { id: ids.gift }, body: { amount_cents: 500 } }),
  },
  {
    id: 'giftCertificates.adjust',
    params: (ids) => ({ path: { id: ids.gift }, body: { amount_cents: -100, note: 'Rounding' } }),
  },
  { id: 'giftCertificates.disable', params: onPath('gift') },
  { id: 'giftCertificates.enable', params: onPath('gift') },
  {
    id: 'coupons.create',
    params: () => ({ body: { code: 'E2E10', name: 'E2E ten', percent_off: 10 } }),
    keep: keepAs('coupon'),
  },
  { id: 'coupons.update', params: (ids) => ({ path: { id: ids.coupon }, body: { active: false } }) },
  { id: 'coupons.delete', params: onPath('coupon') },
  { id: 'me.retrieve', params: () => ({}) },
];

/** The step of an operation with none of its own: its spec example's ids and params, as query (GET) or body. */
export function derivedStep(op: SpecOperation): SweepStep {
  const { ids, params } = exampleArguments(op);
  const path = Object.fromEntries(op.pathParams.map((name, i) => [name, ids[i]]));
  const part = params === undefined ? {} : op.method === 'GET' ? { query: params } : { body: params };
  return {
    id: op.id as OperationId,
    params: () => ({ ...(op.pathParams.length > 0 ? { path } : {}), ...part }) as RequestParams,
  };
}

/** The hand-written steps, then one derived from the spec for each operation that has none. */
export const SWEEP: readonly SweepStep[] = [
  ...HAND_STEPS,
  ...specOperations()
    .filter((op) => !HAND_STEPS.some((step) => step.id === op.id))
    .map(derivedStep),
];

/** Calls one step's operation: a cursor list through `list` (its first page), anything else through `request`. */
export async function runStep(shop: ShopClient, step: SweepStep, ids: SweepIds): Promise<unknown> {
  const operation = operations[step.id];
  const params = step.params(ids);
  if (operation.pagination === 'cursor') return (await shop.list(operation, params)).data;
  const data = (await shop.request(operation, params)) as { id?: number };
  step.keep?.(data, ids);
  return data;
}
