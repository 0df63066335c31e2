import { describe, expect, it } from 'vitest';
import type { ShopClient } from '../../src/client.js';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  ShopApiError,
  UnprocessableEntityError,
} from '../../src/core/errors/index.js';
import { newerValue } from '../../src/core/validation/newer-value.js';
import type { ErrorCode } from '../../src/generated/error-codes.js';
import { apiError, client, mockApi } from './helpers.js';

const api = mockApi();

interface ErrorCase {
  readonly group: string;
  readonly call: (shop: ShopClient) => PromiseLike<unknown>;
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;
  readonly errorClass: new (...args: never[]) => ShopApiError;
}

// One documented error per resource group (reference sections 4 and 7), answered the way the API answers it.
const ERROR_CASES: readonly ErrorCase[] = [
  {
    group: 'range.resources',
    call: (shop) => shop.range.resources.list(),
    status: 402,
    code: 'RANGE_ADDON_REQUIRED',
    errorClass: PaymentRequiredError,
  },
  {
    group: 'range.sessions',
    call: (shop) => shop.range.sessions.list({ from: 'yesterday' }),
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { from: ['must be an ISO-8601 date-time'] },
    errorClass: BadRequestError,
  },
  {
    group: 'range.classes',
    call: (shop) => shop.range.classes.list(),
    status: 402,
    code: 'RANGE_ADDON_REQUIRED',
    errorClass: PaymentRequiredError,
  },
  {
    group: 'range.availability',
    call: (shop) =>
      shop.range.availability.list({ starts_at: '2026-10-01T16:00:00Z', ends_at: '2026-10-01T15:00:00Z' }),
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { ends_at: ['must be after starts_at'] },
    errorClass: BadRequestError,
  },
  {
    group: 'range.reservations (create, class seats)',
    call: (shop) => shop.range.reservations.create({ class_session_id: 90, party_size: 6 }),
    status: 409,
    code: 'SESSION_FULL',
    errorClass: ConflictError,
  },
  {
    group: 'range.reservations (create, lane)',
    call: (shop) =>
      shop.range.reservations.create({
        resource_ids: [12],
        starts_at: '2026-10-01T15:00:00Z',
        ends_at: '2026-10-01T16:00:00Z',
        party_size: 9,
      }),
    status: 422,
    code: 'CONSTRAINT_VIOLATION',
    errorClass: UnprocessableEntityError,
  },
  {
    group: 'range.reservations (checkIn)',
    call: (shop) => shop.range.reservations.checkIn(5001),
    status: 409,
    code: 'INVALID_STATE',
    errorClass: ConflictError,
  },
  {
    group: 'range.rentals',
    call: (shop) => shop.range.rentals.list({ status: newerValue('lost') }),
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { status: ['must be one of available, checked_out, maintenance, retired'] },
    errorClass: BadRequestError,
  },
  {
    group: 'range.rentalCheckouts',
    call: (shop) => shop.range.rentalCheckouts.list({ cursor: 'not-a-cursor' }),
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { cursor: ['is not valid'] },
    errorClass: BadRequestError,
  },
  {
    group: 'membershipPlans',
    call: (shop) => shop.membershipPlans.list(),
    status: 403,
    code: 'INSUFFICIENT_SCOPE',
    details: { required: 'memberships:read' },
    errorClass: PermissionDeniedError,
  },
  {
    group: 'memberships (create)',
    call: (shop) => shop.memberships.create({ customer_id: 8801, plan_id: 12, billing_method: 'counter' }),
    status: 409,
    code: 'ALREADY_MEMBER',
    errorClass: ConflictError,
  },
  {
    group: 'memberships (useGuestPass)',
    call: (shop) => shop.memberships.useGuestPass(410),
    status: 422,
    code: 'NO_GUEST_PASSES',
    errorClass: UnprocessableEntityError,
  },
  {
    group: 'cardTransactions',
    call: (shop) => shop.cardTransactions.retrieve(7001),
    status: 404,
    code: 'NOT_FOUND',
    errorClass: NotFoundError,
  },
  {
    group: 'returns',
    call: (shop) => shop.returns.retrieve(880),
    status: 404,
    code: 'NOT_FOUND',
    errorClass: NotFoundError,
  },
  {
    group: 'events',
    call: (shop) => shop.events.list({ cursor: 'stale' }),
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { cursor: ['is not valid'] },
    errorClass: BadRequestError,
  },
  {
    group: 'locations',
    call: (shop) => shop.locations.update(3, { name: 'Main St' }),
    status: 409,
    code: 'FIELD_NOT_WRITABLE',
    details: { fields: ['name'] },
    errorClass: ConflictError,
  },
  {
    group: 'products',
    call: (shop) => shop.products.update(2201, { is_firearm: true }),
    status: 409,
    code: 'COMPLIANCE_FIELD',
    details: { field: 'is_firearm' },
    errorClass: ConflictError,
  },
  {
    group: 'inventory',
    call: (shop) => shop.inventory.set({ sku: 'GLOCK-19', location_id: 3, qty: 4 }),
    status: 409,
    code: 'SERIALIZED',
    errorClass: ConflictError,
  },
  {
    group: 'purchaseOrders (update)',
    call: (shop) => shop.purchaseOrders.update(330, { vendor_id: 41 }),
    status: 409,
    code: 'PO_SUBMITTED',
    errorClass: ConflictError,
  },
  {
    group: 'purchaseOrders (receive)',
    call: (shop) => shop.purchaseOrders.receive(330, { all_outstanding: true }),
    status: 409,
    code: 'NOTHING_OUTSTANDING',
    details: { skipped: [{ sku: 'GLOCK-19' }] },
    errorClass: ConflictError,
  },
  {
    group: 'orders',
    call: (shop) => shop.orders.void(62001),
    status: 409,
    code: 'FIREARM_ORDER',
    errorClass: ConflictError,
  },
  {
    group: 'customers.account',
    call: (shop) => shop.customers.account.payments.create(8801, { amount_cents: 99_999 }),
    status: 422,
    code: 'OVERPAYMENT',
    errorClass: UnprocessableEntityError,
  },
  {
    group: 'customers.storeCredit',
    call: (shop) => shop.customers.storeCredit.redeem(8801, { amount_cents: 99_999 }),
    status: 422,
    code: 'INSUFFICIENT_CREDIT',
    errorClass: UnprocessableEntityError,
  },
  {
    group: 'storeCredit',
    call: (shop) => shop.storeCredit.list(),
    status: 403,
    code: 'INSUFFICIENT_SCOPE',
    details: { required: 'store_credit:read' },
    errorClass: PermissionDeniedError,
  },
  {
    group: 'invoices',
    call: (shop) => shop.invoices.retrieve(4100),
    status: 404,
    code: 'NOT_FOUND',
    errorClass: NotFoundError,
  },
  {
    group: 'accountPayments',
    call: (shop) => shop.accountPayments.list({ cursor: 'stale' }),
    status: 400,
    code: 'VALIDATION_ERROR',
    details: { cursor: ['is not valid'] },
    errorClass: BadRequestError,
  },
  {
    group: 'giftCertificates (redeem)',
    call: (shop) => shop.giftCertificates.redeem(71, { amount_cents: 9000 }),
    status: 422,
    code: 'GIFT_CERTIFICATE_INSUFFICIENT',
    details: { balance_cents: 5000 },
    errorClass: UnprocessableEntityError,
  },
  {
    group: 'giftCertificates (issue)',
    call: (shop) => shop.giftCertificates.issue({ code: 'GIFT-2026-ABCD' }),
    status: 409,
    code: 'GIFT_CERTIFICATE_CODE_TAKEN',
    errorClass: ConflictError,
  },
  {
    group: 'coupons',
    call: (shop) => shop.coupons.create({ code: 'FALL10' }),
    status: 409,
    code: 'CODE_TAKEN',
    errorClass: ConflictError,
  },
  {
    group: 'me',
    call: (shop) => shop.me.retrieve(),
    status: 401,
    code: 'INVALID_API_KEY',
    errorClass: AuthenticationError,
  },
];

describe('documented errors, one or more per group', () => {
  it.each(ERROR_CASES)(
    '$group: $status $code raises its typed error',
    async ({ call, status, code, details, errorClass }) => {
      api.respond(() => apiError(status, code, details));

      const error = await Promise.resolve(call(client())).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(errorClass);
      const apiErr = error as ShopApiError;
      expect(apiErr.status).toBe(status);
      expect(apiErr.code).toBe(code);
      expect(apiErr.is(code as ErrorCode)).toBe(true);
      expect(apiErr.details).toEqual(details ?? {});
      expect(api.requests).toHaveLength(1);
    },
  );

  it('types details for the codes the reference documents', async () => {
    api.respond(() => apiError(422, 'GIFT_CERTIFICATE_INSUFFICIENT', { balance_cents: 1200 }));
    const error = await client()
      .giftCertificates.redeem(71, { amount_cents: 2000 })
      .catch((e: unknown) => e);
    if (!(error instanceof ShopApiError) || !error.is('GIFT_CERTIFICATE_INSUFFICIENT'))
      throw new Error('wrong error');
    const balance: number = error.details.balance_cents;
    expect(balance).toBe(1200);
  });
});
