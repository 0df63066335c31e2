import type { ShopClient } from '../../src/client.js';
import type { OperationId } from '../../src/generated/operations.js';
import { samples } from '../generated/samples.js';
import {
  exampleArguments,
  filledPath,
  type SpecOperation,
  specOperations,
} from '../support/spec-operations.js';

/**
 * One call per operation of the API, with the request that must reach the server and the `data` the server
 * answers with. The rows below are written by hand from the reference, not derived from the operation table,
 * so a method that sends to the wrong path or drops a field fails here; an operation without one gets a row
 * built from its spec entry (`derivedCase`), so a new endpoint needs no line here.
 */
export interface OperationCase {
  readonly id: OperationId;
  readonly call: (shop: ShopClient) => PromiseLike<unknown>;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** Decoded query parameters; `{}` when none may be sent. */
  readonly query?: Record<string, string>;
  /** The JSON body; undefined when none may be sent. */
  readonly body?: unknown;
  /** The envelope's `data` for a single record, or the one item of a one-page list. */
  readonly data: unknown;
}

const s = samples;
const since = new Date('2026-10-01T00:00:00.000Z');
const SINCE = '2026-10-01T00:00:00.000Z';

const HAND_CASES: readonly OperationCase[] = [
  // Range
  {
    id: 'range.resources.list',
    call: (shop) =>
      shop.range.resources.list({ type: 'lane', location_id: 3, updated_since: since, limit: 20 }),
    method: 'GET',
    path: '/v1/range/resources',
    query: { type: 'lane', location_id: '3', updated_since: SINCE, limit: '20' },
    data: s.RangeResource,
  },
  {
    id: 'range.classes.list',
    call: (shop) => shop.range.classes.list({ limit: 5 }),
    method: 'GET',
    path: '/v1/range/classes',
    query: { limit: '5' },
    data: s.RangeClass,
  },
  {
    id: 'range.sessions.list',
    call: (shop) => shop.range.sessions.list({ from: '2026-10-01T00:00:00Z', to: since, class_id: 7 }),
    method: 'GET',
    path: '/v1/range/sessions',
    query: { from: '2026-10-01T00:00:00Z', to: SINCE, class_id: '7' },
    data: s.RangeClassSession,
  },
  {
    id: 'range.reservations.list',
    call: (shop) =>
      shop.range.reservations.list({
        status: 'booked',
        class_session_id: 90,
        source: 'api',
        from: '2026-10-01T00:00:00Z',
        to: '2026-10-31T00:00:00Z',
        location_id: 3,
        cursor: 'eyJpZCI6NTAwMX0+/=',
      }),
    method: 'GET',
    path: '/v1/range/reservations',
    query: {
      status: 'booked',
      class_session_id: '90',
      source: 'api',
      from: '2026-10-01T00:00:00Z',
      to: '2026-10-31T00:00:00Z',
      location_id: '3',
      cursor: 'eyJpZCI6NTAwMX0+/=',
    },
    data: s.RangeReservation,
  },
  {
    id: 'range.reservations.retrieve',
    call: (shop) => shop.range.reservations.retrieve(5001),
    method: 'GET',
    path: '/v1/range/reservations/5001',
    data: s.RangeReservation,
  },
  {
    id: 'range.availability.list',
    call: (shop) =>
      shop.range.availability.list({
        starts_at: '2026-10-01T15:00:00Z',
        ends_at: new Date('2026-10-01T16:00:00Z'),
        location_id: 3,
        type: 'lane',
        party_size: 2,
        lane_type: ['rifle', 'pistol'],
      }),
    method: 'GET',
    path: '/v1/range/availability',
    query: {
      starts_at: '2026-10-01T15:00:00Z',
      ends_at: '2026-10-01T16:00:00.000Z',
      location_id: '3',
      type: 'lane',
      party_size: '2',
      lane_type: 'rifle,pistol',
    },
    data: [s.RangeAvailability],
  },
  {
    id: 'range.reservations.create',
    call: (shop) =>
      shop.range.reservations.create({
        resource_ids: [12],
        starts_at: '2026-10-01T15:00:00Z',
        ends_at: '2026-10-01T16:00:00Z',
        party_size: 2,
        location_id: 3,
        customer: { email: 'dana@example.com', first_name: 'Dana', last_name: 'Reyes' },
        contact: { name: 'Dana Reyes', phone: '+1-555-0100' },
        paid: true,
        amount_cents: 4500,
        external_reference: 'web-1042',
        notes: 'Left-handed shooter',
      }),
    method: 'POST',
    path: '/v1/range/reservations',
    body: {
      resource_ids: [12],
      starts_at: '2026-10-01T15:00:00Z',
      ends_at: '2026-10-01T16:00:00Z',
      party_size: 2,
      location_id: 3,
      customer: { email: 'dana@example.com', first_name: 'Dana', last_name: 'Reyes' },
      contact: { name: 'Dana Reyes', phone: '+1-555-0100' },
      paid: true,
      amount_cents: 4500,
      external_reference: 'web-1042',
      notes: 'Left-handed shooter',
    },
    data: s.RangeReservation,
  },
  {
    id: 'range.reservations.checkIn',
    call: (shop) => shop.range.reservations.checkIn(5001),
    method: 'POST',
    path: '/v1/range/reservations/5001/check-in',
    data: s.RangeReservationTransition,
  },
  {
    id: 'range.reservations.markNoShow',
    call: (shop) => shop.range.reservations.markNoShow(5001),
    method: 'POST',
    path: '/v1/range/reservations/5001/no-show',
    data: { ...s.RangeReservationTransition, status: 'no_show', no_show_at: '2026-10-01T15:30:00Z' },
  },
  {
    id: 'range.reservations.cancel',
    call: (shop) => shop.range.reservations.cancel(5001, { reason: 'Guest called to cancel' }),
    method: 'POST',
    path: '/v1/range/reservations/5001/cancel',
    body: { reason: 'Guest called to cancel' },
    data: s.ReservationCancelResult,
  },
  {
    id: 'range.rentals.list',
    call: (shop) => shop.range.rentals.list({ status: 'checked_out', location_id: 3 }),
    method: 'GET',
    path: '/v1/range/rentals',
    query: { status: 'checked_out', location_id: '3' },
    data: s.RangeRental,
  },
  {
    id: 'range.rentals.retrieve',
    call: (shop) => shop.range.rentals.retrieve(77),
    method: 'GET',
    path: '/v1/range/rentals/77',
    data: s.RangeRentalDetail,
  },
  {
    id: 'range.rentalCheckouts.list',
    call: (shop) =>
      shop.range.rentalCheckouts.list({
        rental_id: 77,
        customer_id: 8801,
        reservation_id: 5001,
        open: false,
      }),
    method: 'GET',
    path: '/v1/range/rental-checkouts',
    query: { rental_id: '77', customer_id: '8801', reservation_id: '5001', open: 'false' },
    data: s.RangeRentalCheckout,
  },
  // Memberships
  {
    id: 'membershipPlans.list',
    call: (shop) => shop.membershipPlans.list({ status: 'active' }),
    method: 'GET',
    path: '/v1/membership-plans',
    query: { status: 'active' },
    data: s.MembershipPlan,
  },
  {
    id: 'memberships.list',
    call: (shop) => shop.memberships.list({ customer_id: 8801, plan_id: 12, status: 'past_due' }),
    method: 'GET',
    path: '/v1/memberships',
    query: { customer_id: '8801', plan_id: '12', status: 'past_due' },
    data: s.Membership,
  },
  {
    id: 'memberships.retrieve',
    call: (shop) => shop.memberships.retrieve(410),
    method: 'GET',
    path: '/v1/memberships/410',
    data: s.MembershipDetail,
  },
  {
    id: 'memberships.create',
    call: (shop) =>
      shop.memberships.create({
        customer_id: 8801,
        plan_id: 12,
        billing_method: 'link',
        paid: true,
        location_id: 3,
        external_reference: 'crm-5521',
      }),
    method: 'POST',
    path: '/v1/memberships',
    body: {
      customer_id: 8801,
      plan_id: 12,
      billing_method: 'link',
      paid: true,
      location_id: 3,
      external_reference: 'crm-5521',
    },
    data: s.MembershipDetail,
  },
  {
    id: 'memberships.cancel',
    call: (shop) => shop.memberships.cancel(410, { reason: 'Moving away', at_period_end: false }),
    method: 'POST',
    path: '/v1/memberships/410/cancel',
    body: { reason: 'Moving away', at_period_end: false },
    data: { ...s.Membership, status: 'cancelled' },
  },
  {
    id: 'memberships.useGuestPass',
    call: (shop) => shop.memberships.useGuestPass(410, { note: 'Brought a friend' }),
    method: 'POST',
    path: '/v1/memberships/410/guest-pass',
    body: { note: 'Brought a friend' },
    data: s.GuestPassResult,
  },
  // Card transactions, returns, events
  {
    id: 'cardTransactions.list',
    call: (shop) =>
      shop.cardTransactions.list({
        status: 'approved',
        kind: 'charge',
        order_id: 62001,
        updated_since: since,
      }),
    method: 'GET',
    path: '/v1/card-transactions',
    query: { status: 'approved', kind: 'charge', order_id: '62001', updated_since: SINCE },
    data: s.CardTransaction,
  },
  {
    id: 'cardTransactions.retrieve',
    call: (shop) => shop.cardTransactions.retrieve(7001),
    method: 'GET',
    path: '/v1/card-transactions/7001',
    data: s.CardTransaction,
  },
  {
    id: 'returns.list',
    call: (shop) => shop.returns.list({ order_id: 62001, customer_id: 8801, source: 'sale', location_id: 3 }),
    method: 'GET',
    path: '/v1/returns',
    query: { order_id: '62001', customer_id: '8801', source: 'sale', location_id: '3' },
    data: s.Return,
  },
  {
    id: 'returns.retrieve',
    call: (shop) => shop.returns.retrieve(880),
    method: 'GET',
    path: '/v1/returns/880',
    data: s.Return,
  },
  {
    id: 'events.list',
    call: (shop) => shop.events.list({ type: 'range.reservation.booked', updated_since: since, limit: 200 }),
    method: 'GET',
    path: '/v1/events',
    query: { type: 'range.reservation.booked', updated_since: SINCE, limit: '200' },
    data: s.Event,
  },
  // Inventory sync and purchasing
  {
    id: 'locations.list',
    call: (shop) => shop.locations.list(),
    method: 'GET',
    path: '/v1/locations',
    data: s.Location,
  },
  {
    id: 'locations.update',
    call: (shop) =>
      shop.locations.update(3, {
        phone: '+1-555-0199',
        email: 'range@example.com',
        business_hours: { mon: '10-20' },
      }),
    method: 'PATCH',
    path: '/v1/locations/3',
    body: { phone: '+1-555-0199', email: 'range@example.com', business_hours: { mon: '10-20' } },
    data: s.Location,
  },
  {
    id: 'products.list',
    call: (shop) => shop.products.list({ include: 'inventory', updated_since: since, limit: 200 }),
    method: 'GET',
    path: '/v1/products',
    query: { include: 'inventory', updated_since: SINCE, limit: '200' },
    data: s.Product,
  },
  {
    id: 'products.update',
    call: (shop) =>
      shop.products.update(2201, {
        price_cents: 1899,
        vendor_id: 40,
        vendor_sku: 'FED-9-50',
        reorder_qty: null,
      }),
    method: 'PATCH',
    path: '/v1/products/2201',
    body: { price_cents: 1899, vendor_id: 40, vendor_sku: 'FED-9-50', reorder_qty: null },
    data: s.Product,
  },
  {
    id: 'inventory.list',
    call: (shop) => shop.inventory.list({ updated_since: since, limit: 100 }),
    method: 'GET',
    path: '/v1/inventory',
    query: { updated_since: SINCE, limit: '100' },
    data: s.InventoryLevel,
  },
  {
    id: 'inventory.listSerialized',
    call: (shop) => shop.inventory.listSerialized({ product_id: 4410, status: 'in_stock' }),
    method: 'GET',
    path: '/v1/inventory/serialized',
    query: { product_id: '4410', status: 'in_stock' },
    data: s.SerializedItem,
  },
  {
    id: 'inventory.adjust',
    call: (shop) =>
      shop.inventory.adjust({
        sku: 'AMMO-9MM-50',
        location_id: 3,
        qty_delta: -2,
        reason: 'receive',
        note: 'Recount',
      }),
    method: 'POST',
    path: '/v1/inventory/adjust',
    body: { sku: 'AMMO-9MM-50', location_id: 3, qty_delta: -2, reason: 'receive', note: 'Recount' },
    data: s.InventoryWriteResult,
  },
  {
    id: 'inventory.set',
    call: (shop) => shop.inventory.set({ sku: 'AMMO-9MM-50', location_id: 3, qty: 64 }),
    method: 'POST',
    path: '/v1/inventory/set',
    body: { sku: 'AMMO-9MM-50', location_id: 3, qty: 64 },
    data: s.InventoryWriteResult,
  },
  {
    id: 'purchaseOrders.create',
    call: (shop) =>
      shop.purchaseOrders.create({
        vendor_id: 40,
        location_id: 3,
        channel_order_id: 'ERP-PO-2026-118',
        submit: true,
        lines: [{ sku: 'AMMO-9MM-50', qty: 24, unit_cost_cents: 1150 }],
      }),
    method: 'POST',
    path: '/v1/purchase-orders',
    body: {
      vendor_id: 40,
      location_id: 3,
      channel_order_id: 'ERP-PO-2026-118',
      submit: true,
      lines: [{ sku: 'AMMO-9MM-50', qty: 24, unit_cost_cents: 1150 }],
    },
    data: s.PurchaseOrder,
  },
  {
    id: 'purchaseOrders.update',
    call: (shop) =>
      shop.purchaseOrders.update(330, { lines: [{ sku: 'AMMO-9MM-50', qty: 48, unit_cost_cents: 1150 }] }),
    method: 'PATCH',
    path: '/v1/purchase-orders/330',
    body: { lines: [{ sku: 'AMMO-9MM-50', qty: 48, unit_cost_cents: 1150 }] },
    data: s.PurchaseOrder,
  },
  {
    id: 'purchaseOrders.submit',
    call: (shop) => shop.purchaseOrders.submit(330),
    method: 'POST',
    path: '/v1/purchase-orders/330/submit',
    data: s.PurchaseOrder,
  },
  {
    id: 'purchaseOrders.cancel',
    call: (shop) => shop.purchaseOrders.cancel(330),
    method: 'POST',
    path: '/v1/purchase-orders/330/cancel',
    data: { ...s.PurchaseOrder, status: 'cancelled' },
  },
  {
    id: 'purchaseOrders.receive',
    call: (shop) =>
      shop.purchaseOrders.receive(330, { all_outstanding: true, reference: 'Packing slip 8812' }),
    method: 'POST',
    path: '/v1/purchase-orders/330/receive',
    body: { all_outstanding: true, reference: 'Packing slip 8812' },
    data: s.PurchaseOrderReceiveResult,
  },
  {
    id: 'orders.create',
    call: (shop) =>
      shop.orders.create({ external_reference: 'WEB-1001', lines: [{ sku: 'TGT-25', qty: 10 }] }),
    method: 'POST',
    path: '/v1/orders',
    body: { external_reference: 'WEB-1001', lines: [{ sku: 'TGT-25', qty: 10 }] },
    data: s.Order,
  },
  {
    id: 'orders.void',
    call: (shop) => shop.orders.void(62001),
    method: 'POST',
    path: '/v1/orders/62001/void',
    data: { ...s.Order, status: 'voided' },
  },
  // House accounts and store credit
  {
    id: 'customers.account.retrieve',
    call: (shop) => shop.customers.account.retrieve(8801),
    method: 'GET',
    path: '/v1/customers/8801/account',
    data: s.CustomerAccount,
  },
  {
    id: 'customers.account.payments.create',
    call: (shop) =>
      shop.customers.account.payments.create(8801, { amount_cents: 12_500, reference: 'ACH 17' }),
    method: 'POST',
    path: '/v1/customers/8801/account/payments',
    body: { amount_cents: 12_500, reference: 'ACH 17' },
    data: s.AccountPayment,
  },
  {
    id: 'customers.storeCredit.retrieve',
    call: (shop) => shop.customers.storeCredit.retrieve(8801),
    method: 'GET',
    path: '/v1/customers/8801/store-credit',
    data: s.StoreCredit,
  },
  {
    id: 'customers.storeCredit.issue',
    call: (shop) => shop.customers.storeCredit.issue(8801, { amount_cents: 2500, note: 'Goodwill' }),
    method: 'POST',
    path: '/v1/customers/8801/store-credit/issue',
    body: { amount_cents: 2500, note: 'Goodwill' },
    data: s.StoreCredit,
  },
  {
    id: 'customers.storeCredit.redeem',
    call: (shop) => shop.customers.storeCredit.redeem(8801, { amount_cents: 1000 }),
    method: 'POST',
    path: '/v1/customers/8801/store-credit/redeem',
    body: { amount_cents: 1000 },
    data: { ...s.StoreCredit, balance_cents: 1500 },
  },
  {
    id: 'storeCredit.list',
    call: (shop) => shop.storeCredit.list({ limit: 10 }),
    method: 'GET',
    path: '/v1/store-credit',
    query: { limit: '10' },
    data: s.StoreCredit,
  },
  {
    id: 'invoices.list',
    call: (shop) => shop.invoices.list({ customer_id: 8801 }),
    method: 'GET',
    path: '/v1/invoices',
    query: { customer_id: '8801' },
    data: s.Invoice,
  },
  {
    id: 'invoices.retrieve',
    call: (shop) => shop.invoices.retrieve(4100),
    method: 'GET',
    path: '/v1/invoices/4100',
    data: s.Invoice,
  },
  {
    id: 'accountPayments.list',
    call: (shop) => shop.accountPayments.list({ limit: 50 }),
    method: 'GET',
    path: '/v1/account-payments',
    query: { limit: '50' },
    data: s.AccountPayment,
  },
  // Gift certificates
  {
    id: 'giftCertificates.issue',
    call: (shop) => shop.giftCertificates.issue({ code: 'GIFT-2026-ABCD', amount_cents: 5000 }),
    method: 'POST',
    path: '/v1/gift-certificates',
    body: { code: 'GIFT-2026-ABCD', amount_cents: 5000 },
    data: s.GiftCertificate,
  },
  {
    id: 'giftCertificates.redeem',
    call: (shop) => shop.giftCertificates.redeem(71, { amount_cents: 2000 }),
    method: 'POST',
    path: '/v1/gift-certificates/71/redeem',
    body: { amount_cents: 2000 },
    data: { ...s.GiftCertificate, balance_cents: 3000 },
  },
  {
    id: 'giftCertificates.reverse',
    call: (shop) => shop.giftCertificates.reverse(71, { transaction_id: 9 }),
    method: 'POST',
    path: '/v1/gift-certificates/71/reverse',
    body: { transaction_id: 9 },
    data: s.GiftCertificate,
  },
  {
    id: 'giftCertificates.reload',
    call: (shop) => shop.giftCertificates.reload(71, { amount_cents: 2500 }),
    method: 'POST',
    path: '/v1/gift-certificates/71/reload',
    body: { amount_cents: 2500 },
    data: { ...s.GiftCertificate, balance_cents: 7500 },
  },
  {
    id: 'giftCertificates.adjust',
    call: (shop) => shop.giftCertificates.adjust(71, { amount_cents: -500, note: 'Miskeyed reload' }),
    method: 'POST',
    path: '/v1/gift-certificates/71/adjust',
    body: { amount_cents: -500, note: 'Miskeyed reload' },
    data: { ...s.GiftCertificate, balance_cents: 4500 },
  },
  {
    id: 'giftCertificates.disable',
    call: (shop) => shop.giftCertificates.disable(71),
    method: 'POST',
    path: '/v1/gift-certificates/71/disable',
    data: { ...s.GiftCertificate, status: 'disabled' },
  },
  {
    id: 'giftCertificates.enable',
    call: (shop) => shop.giftCertificates.enable(71, {}),
    method: 'POST',
    path: '/v1/gift-certificates/71/enable',
    body: {},
    data: s.GiftCertificate,
  },
  // Coupons and the key
  {
    id: 'coupons.create',
    call: (shop) =>
      shop.coupons.create({ code: 'FALL10', channel: 'store_online', location_id: null, percent_off: 10 }),
    method: 'POST',
    path: '/v1/coupons',
    body: { code: 'FALL10', channel: 'store_online', location_id: null, percent_off: 10 },
    data: s.Coupon,
  },
  {
    id: 'coupons.update',
    call: (shop) => shop.coupons.update(15, { location_id: 3 }),
    method: 'PATCH',
    path: '/v1/coupons/15',
    body: { location_id: 3 },
    data: { ...s.Coupon, location_id: 3 },
  },
  {
    id: 'coupons.delete',
    call: (shop) => shop.coupons.delete(15),
    method: 'DELETE',
    path: '/v1/coupons/15',
    data: { id: 15, deleted: true },
  },
  {
    id: 'me.retrieve',
    call: (shop) => shop.me.retrieve(),
    method: 'GET',
    path: '/v1/me',
    data: s.Me,
  },
];

/** How the transport writes a query value of an example (literals only: no Date). */
const queryValue = (value: unknown): string => (Array.isArray(value) ? value.join(',') : String(value));

/**
 * The row of an operation with no hand-written one: its spec example called on the client's method, the
 * request its spec method and path (with the example's ids) and the example's params as query (GET) or body
 * must make, answered with the sample of the record its spec answer names (`{}` when it names none).
 */
export function derivedCase(op: SpecOperation): OperationCase {
  const example = exampleArguments(op);
  const args = [...example.ids, ...(example.params === undefined ? [] : [example.params])];
  const query =
    op.method === 'GET'
      ? Object.fromEntries(Object.entries(example.params ?? {}).map(([k, v]) => [k, queryValue(v)]))
      : undefined;
  const data = op.record === null ? {} : samples[op.record];
  if (data === undefined) throw new Error(`${op.id}: test/generated/samples.ts has no ${op.record}`);
  return {
    id: op.id as OperationId,
    call: (shop) => {
      const names = op.id.split('.');
      const last = names.pop()!;
      let group = shop as unknown as Record<string, unknown>;
      for (const name of names) group = group[name] as Record<string, unknown>;
      return (group[last] as (...a: unknown[]) => PromiseLike<unknown>).call(group, ...args);
    },
    method: op.method,
    path: filledPath(op, example),
    ...(query ? { query } : {}),
    ...(op.method !== 'GET' && example.params !== undefined ? { body: example.params } : {}),
    data,
  };
}

/** The hand-written rows, then one derived from the spec for each operation that has none. */
export const OPERATION_CASES: readonly OperationCase[] = [
  ...HAND_CASES,
  ...specOperations()
    .filter((op) => !HAND_CASES.some((row) => row.id === op.id))
    .map(derivedCase),
];
