import { describe, expect, it } from 'vitest';
import { ERROR_CODE_STATUS, type ErrorCode } from '../../src/generated/error-codes.js';
import { ErrorEnvelopeSchema } from '../../src/generated/schemas.js';
import type { CreateKeyOptions, SandboxOptions } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';
import { idempotent } from './shop-helpers.js';

interface Case {
  readonly code: ErrorCode;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly sandbox?: SandboxOptions;
  readonly key?: CreateKeyOptions;
  readonly noIdempotencyKey?: boolean;
}

/** One request per error code of the shop endpoints, each against a freshly seeded shop. */
const CASES: readonly Case[] = [
  {
    code: 'VALIDATION_ERROR',
    method: 'POST',
    path: '/v1/coupons',
    body: { code: 'W2', percent_off: 5, channel: 'store_online', location_id: 2 },
  },
  {
    code: 'IDEMPOTENCY_KEY_REQUIRED',
    method: 'POST',
    path: '/v1/customers/2/account/payments',
    body: { amount_cents: 1 },
    noIdempotencyKey: true,
  },
  {
    code: 'INSUFFICIENT_SCOPE',
    method: 'GET',
    path: '/v1/card-transactions',
    key: { permissions: ['returns:read'] },
  },
  { code: 'NOT_FOUND', method: 'POST', path: '/v1/memberships/9/cancel', body: {}, key: { locations: [1] } },
  { code: 'METHOD_NOT_ALLOWED', method: 'GET', path: '/v1/coupons/1' },
  {
    code: 'MEMBERSHIPS_OFF',
    method: 'POST',
    path: '/v1/memberships',
    body: { customer_id: 5, plan_id: 1, billing_method: 'counter' },
    sandbox: { memberships: false },
  },
  {
    code: 'CARD_PROCESSING_OFF',
    method: 'POST',
    path: '/v1/memberships',
    body: { customer_id: 5, plan_id: 1, billing_method: 'link' },
    sandbox: { cardProcessing: false },
  },
  {
    code: 'PLAN_ARCHIVED',
    method: 'POST',
    path: '/v1/memberships',
    body: { customer_id: 5, plan_id: 4, billing_method: 'counter' },
  },
  {
    code: 'ALREADY_MEMBER',
    method: 'POST',
    path: '/v1/memberships',
    body: { customer_id: 6, plan_id: 2, billing_method: 'counter' },
  },
  { code: 'NO_GUEST_PASSES', method: 'POST', path: '/v1/memberships/10/guest-pass' },
  { code: 'INVALID_STATE', method: 'POST', path: '/v1/purchase-orders/5/cancel' },
  { code: 'FIELD_NOT_WRITABLE', method: 'PATCH', path: '/v1/locations/1', body: { address: 'Elsewhere' } },
  { code: 'COMPLIANCE_FIELD', method: 'PATCH', path: '/v1/products/9', body: { is_firearm: false } },
  { code: 'HAS_STOCK', method: 'PATCH', path: '/v1/products/4', body: { is_serialized: true } },
  { code: 'SKU_TAKEN', method: 'PATCH', path: '/v1/products/4', body: { sku: 'CLN-HOP-UNIV' } },
  {
    code: 'NOT_TRACKED',
    method: 'POST',
    path: '/v1/inventory/adjust',
    body: { sku: 'CLS-CCW', qty_delta: 1 },
  },
  {
    code: 'INSUFFICIENT_STOCK',
    method: 'POST',
    path: '/v1/inventory/adjust',
    body: { sku: 'APP-TEE-RR-L', location_id: 1, qty_delta: -1 },
  },
  {
    code: 'SERIALIZED',
    method: 'POST',
    path: '/v1/inventory/set',
    body: { sku: 'FA-GLK-G19G5', qty_on_hand: 1 },
  },
  {
    code: 'DUPLICATE_PURCHASE_ORDER',
    method: 'POST',
    path: '/v1/purchase-orders',
    body: { vendor_id: 1, channel_order_id: 'CH-4990' },
  },
  { code: 'PO_SUBMITTED', method: 'PATCH', path: '/v1/purchase-orders/3', body: { lines: [] } },
  { code: 'EMPTY_PO', method: 'POST', path: '/v1/purchase-orders/4/submit' },
  {
    code: 'NOTHING_OUTSTANDING',
    method: 'POST',
    path: '/v1/purchase-orders/3/receive',
    body: { all_outstanding: true },
  },
  {
    code: 'INVALID_REFERENCE',
    method: 'POST',
    path: '/v1/orders',
    body: { lines: [{ sku: 'NOT-A-SKU', qty: 1 }] },
  },
  {
    code: 'EXTERNAL_REFERENCE_TAKEN',
    method: 'POST',
    path: '/v1/orders',
    body: { external_reference: 'SHOP-1001', lines: [{ sku: 'ACC-EYE-CLR', qty: 1 }] },
  },
  { code: 'FIREARM_ORDER', method: 'POST', path: '/v1/orders/3/void' },
  { code: 'ALREADY_VOIDED', method: 'POST', path: '/v1/orders/4/void' },
  { code: 'SALE_REFUNDED', method: 'POST', path: '/v1/orders/6/void' },
  {
    code: 'OVERPAYMENT',
    method: 'POST',
    path: '/v1/customers/2/account/payments',
    body: { amount_cents: 18_501 },
    key: { permissions: ['accounts:write'] },
  },
  {
    code: 'INSUFFICIENT_CREDIT',
    method: 'POST',
    path: '/v1/customers/11/store-credit/redeem',
    body: { amount_cents: 1001 },
  },
  {
    code: 'GIFT_CERTIFICATE_CODE_TAKEN',
    method: 'POST',
    path: '/v1/gift-certificates',
    body: { amount_cents: 100, code: 'HOLIDAY-2025-AB' },
  },
  {
    code: 'GIFT_CERTIFICATE_CODE_INVALID',
    method: 'POST',
    path: '/v1/gift-certificates',
    body: { amount_cents: 100, code: 'GC_1' },
  },
  {
    code: 'GIFT_CERTIFICATE_INACTIVE',
    method: 'POST',
    path: '/v1/gift-certificates/4/redeem',
    body: { amount_cents: 100 },
  },
  {
    code: 'GIFT_CERTIFICATE_INSUFFICIENT',
    method: 'POST',
    path: '/v1/gift-certificates/1/redeem',
    body: { amount_cents: 5001 },
  },
  { code: 'CODE_TAKEN', method: 'POST', path: '/v1/coupons', body: { code: 'North20', percent_off: 5 } },
];

describe('sandbox shop error codes', () => {
  it.each(CASES)('$code is reachable from the seeded shop', async (testCase) => {
    const sandbox = newSandbox(testCase.sandbox);
    const key = sandbox.createKey(testCase.key);
    const res = await call(sandbox, testCase.method, testCase.path, {
      key,
      body: testCase.body,
      headers: testCase.noIdempotencyKey ? {} : idempotent(),
    });
    expect(res.json.error?.code, JSON.stringify(res.json)).toBe(testCase.code);
    expect(res.status).toBe(ERROR_CODE_STATUS[testCase.code]);
    expect(ErrorEnvelopeSchema.safeParse(res.json).success).toBe(true);
  });
});
