// The error codes of the shop endpoints (inventory, purchasing, orders, products, locations, accounts, store
// credit, gift certificates, coupons), each provoked through ShopClient over HTTP against the seeded shop of
// docs/testing.md ("The shop"). Bodies the reference leaves open follow the sandbox's documented guesses.
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ParamsValidationError,
  type ShopClient,
  UnprocessableEntityError,
} from '../../src/index.js';
import { type ErrorCase, expectErrorCase } from './support/error-cases.js';
import { conformanceTest, failure, spec, useE2E } from './support/harness.js';
import { Recorder } from './support/recorder.js';

const e2e = useE2E();

const GLOCK = 'FA-GLK-G19G5';
const AMMO = 'AMMO-FED-9MM-50';

async function issued(shop: ShopClient, code: string) {
  return shop.giftCertificates.issue({ code, amount_cents: 2500 });
}

const CASES: readonly ErrorCase[] = [
  {
    code: 'VALIDATION_ERROR',
    status: 400,
    errorClass: BadRequestError,
    details: { qty_on_hand: [expect.any(String)] },
    call: (shop) => shop.inventory.set({ sku: AMMO, location_id: 1 }),
  },
  {
    code: 'SERIALIZED',
    status: 409,
    errorClass: ConflictError,
    details: { sku: GLOCK },
    call: (shop) => shop.inventory.set({ sku: GLOCK, location_id: 1, qty_on_hand: 3 }),
  },
  {
    code: 'PO_SUBMITTED',
    status: 409,
    errorClass: ConflictError,
    // PO 2 is submitted.
    call: (shop) => shop.purchaseOrders.update(2, { vendor_id: 1 }),
  },
  {
    code: 'DUPLICATE_PURCHASE_ORDER',
    status: 409,
    errorClass: ConflictError,
    call: (shop) =>
      shop.purchaseOrders.create({
        vendor_id: 1,
        channel_order_id: 'CH-5001',
        lines: [{ sku: AMMO, qty: 1, unit_cost_cents: 1000 }],
      }),
  },
  {
    code: 'NOTHING_OUTSTANDING',
    status: 409,
    errorClass: ConflictError,
    details: { skipped: [expect.objectContaining({ reason: 'serialized' })] },
    // PO 3 holds firearms only: nothing the API may receive.
    call: (shop) => shop.purchaseOrders.receive(3, { all_outstanding: true }),
  },
  {
    code: 'NOT_TRACKED',
    status: 409,
    errorClass: ConflictError,
    call: (shop) => shop.inventory.adjust({ sku: 'SVC-CLEAN-BASIC', location_id: 1, qty_delta: 1 }),
  },
  {
    code: 'EXTERNAL_REFERENCE_TAKEN',
    status: 409,
    errorClass: ConflictError,
    // SHOP-1001 is an online-store order's reference.
    call: (shop) => shop.orders.create({ external_reference: 'SHOP-1001', lines: [{ sku: AMMO, qty: 1 }] }),
  },
  { code: 'FIREARM_ORDER', status: 409, errorClass: ConflictError, call: (shop) => shop.orders.void(3) },
  { code: 'ALREADY_VOIDED', status: 409, errorClass: ConflictError, call: (shop) => shop.orders.void(4) },
  { code: 'SALE_REFUNDED', status: 409, errorClass: ConflictError, call: (shop) => shop.orders.void(1) },
  {
    code: 'HAS_STOCK',
    status: 409,
    errorClass: ConflictError,
    call: (shop) => shop.products.update(1, { is_serialized: true }),
  },
  {
    code: 'COMPLIANCE_FIELD',
    status: 409,
    errorClass: ConflictError,
    details: { field: 'is_firearm' },
    call: (shop) => shop.products.update(8, { is_firearm: false }),
  },
  {
    code: 'SKU_TAKEN',
    status: 409,
    errorClass: ConflictError,
    call: (shop) => shop.products.update(1, { sku: 'ACC-EYE-CLR' }),
  },
  {
    code: 'INSUFFICIENT_STOCK',
    status: 409,
    errorClass: ConflictError,
    call: (shop) => shop.inventory.adjust({ sku: AMMO, location_id: 1, qty_delta: -100_000 }),
  },
  {
    code: 'CODE_TAKEN',
    status: 409,
    errorClass: ConflictError,
    call: (shop) => shop.coupons.create({ code: 'SPRING10', percent_off: 10 }),
  },
  {
    code: 'GIFT_CERTIFICATE_CODE_TAKEN',
    status: 409,
    errorClass: ConflictError,
    call: async (shop) => {
      await issued(shop, 'E2E-GIFT-TAKEN');
      return issued(shop, 'e2e-gift-taken');
    },
  },
  {
    code: 'FIELD_NOT_WRITABLE',
    status: 409,
    errorClass: ConflictError,
    details: { fields: ['name'] },
    call: (shop) => shop.locations.update(1, { name: 'Elsewhere' }),
  },
  {
    code: 'INVALID_STATE',
    status: 409,
    errorClass: ConflictError,
    // PO 6 is cancelled.
    call: (shop) => shop.purchaseOrders.cancel(6),
  },
  {
    code: 'GIFT_CERTIFICATE_INACTIVE',
    status: 422,
    errorClass: UnprocessableEntityError,
    details: { status: 'disabled' },
    call: (shop) => shop.giftCertificates.redeem(3, { amount_cents: 100 }),
  },
  {
    code: 'GIFT_CERTIFICATE_INSUFFICIENT',
    status: 422,
    errorClass: UnprocessableEntityError,
    details: { balance_cents: expect.any(Number) },
    call: (shop) => shop.giftCertificates.redeem(1, { amount_cents: 10_000_000 }),
  },
  {
    code: 'GIFT_CERTIFICATE_CODE_INVALID',
    status: 422,
    errorClass: UnprocessableEntityError,
    call: (shop) => issued(shop, 'ab'),
  },
  {
    code: 'INSUFFICIENT_CREDIT',
    status: 422,
    errorClass: UnprocessableEntityError,
    call: (shop) => shop.customers.storeCredit.redeem(11, { amount_cents: 9_999_999 }),
  },
  {
    code: 'INVALID_REFERENCE',
    status: 422,
    errorClass: UnprocessableEntityError,
    details: { 'lines[0].sku': [expect.any(String)] },
    call: (shop) => shop.orders.create({ lines: [{ sku: 'NO-SUCH-SKU', qty: 1 }] }),
  },
  {
    code: 'EMPTY_PO',
    status: 422,
    errorClass: UnprocessableEntityError,
    // PO 4 is an empty draft.
    call: (shop) => shop.purchaseOrders.submit(4),
  },
  {
    code: 'OVERPAYMENT',
    status: 422,
    errorClass: UnprocessableEntityError,
    // Customer 5 is paid up; without store_credit:write the excess cannot become credit.
    client: (e2e) => e2e.client({ apiKey: e2e.key({ permissions: ['accounts:write'] }) }),
    call: (shop) => shop.customers.account.payments.create(5, { amount_cents: 1000, tender: 'check' }),
  },
];

describe('every shop-side error code the sandbox can produce, as the SDK raises it', () => {
  it.each(CASES)('$status $code is raised as $errorClass.name', (errorCase) =>
    expectErrorCase(e2e, errorCase),
  );
});

describe('balance moves and IDEMPOTENCY_KEY_REQUIRED', () => {
  it('sends an Idempotency-Key on every balance move, so the server never has to ask for one', async () => {
    const shop = e2e.client();
    const gift = await issued(shop, 'E2E-GIFT-KEYS');
    await shop.giftCertificates.redeem(gift.id!, { amount_cents: 500 });
    await shop.customers.storeCredit.issue(1, { amount_cents: 300 });
    const moves = e2e.recorder.exchanges.slice(-3);
    expect(moves.every((move) => move.status < 300)).toBe(true);
    for (const move of moves) expect(move.requestHeaders.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses to send a balance move with a blank key: ParamsValidationError, nothing sent', async () => {
    const before = e2e.recorder.exchanges.length;
    const error = await failure(
      e2e.client().giftCertificates.redeem(
        1,
        { amount_cents: 100 },
        {
          headers: { 'Idempotency-Key': '' },
        },
      ),
    );
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect(e2e.recorder.exchanges.length).toBe(before);
  });
});

describe('natural idempotency of external_reference on orders', () => {
  it('returns the same API order for a repeated external_reference', async () => {
    const shop = e2e.client();
    const body = { external_reference: 'partner-9001', location_id: 1, lines: [{ sku: AMMO, qty: 1 }] };
    const first = await shop.orders.create(body);
    const again = await shop.orders.create(body);
    expect(again.id).toBe(first.id);
  });

  // As memberships.create: the sandbox replays an order with 200, which the spec documents as the 2XX
  // answer of orders.create beside the 201 of a new order.
  it('answers a repeated external_reference with a status the spec documents (201, then 2XX)', async () => {
    const own = new Recorder(spec());
    const shop = e2e.client({ fetch: own.fetch });
    const body = { external_reference: 'partner-9002', location_id: 1, lines: [{ sku: AMMO, qty: 1 }] };
    const first = await shop.orders.create(body).withResponse();
    const again = await shop.orders.create(body).withResponse();
    expect([first.response.status, again.response.status]).toEqual([201, 200]);
    expect(again.data.id).toBe(first.data.id);
    expect(own.violations()).toEqual([]);
  });
});

conformanceTest(e2e, 10);
