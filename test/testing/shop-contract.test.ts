import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_PAYLOAD_SCHEMAS, EventSchema } from '../../src/generated/events.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { type OperationId, operations } from '../../src/generated/operations.js';
import { ListMetaSchema } from '../../src/generated/schemas.js';
import type { z } from '../../src/internal/schema-types.js';
import type { Permission, Sandbox, SandboxServer } from '../../src/testing/index.js';
import { parseInEnglish } from '../support/english.js';
import { call, listAll, newSandbox } from './helpers.js';
import { idempotent } from './shop-helpers.js';

function expectValid(schema: z.ZodType, value: unknown, where: string): void {
  const result = parseInEnglish(schema, value);
  expect(result.success, `${where}: ${result.success ? '' : JSON.stringify(result.error.issues)}`).toBe(true);
}

/** One request per operation of this half of the sandbox, in an order where each succeeds. */
const SCENARIO: [OperationId, string, unknown?][] = [
  ['membershipPlans.list', '/v1/membership-plans'],
  ['memberships.list', '/v1/memberships?limit=200'],
  ['memberships.retrieve', '/v1/memberships/3'],
  ['memberships.create', '/v1/memberships', { customer_id: 5, plan_id: 2, billing_method: 'link' }],
  ['memberships.cancel', '/v1/memberships/2/cancel', { reason: 'x' }],
  ['memberships.useGuestPass', '/v1/memberships/2/guest-pass', { note: 'Ana' }],
  ['cardTransactions.list', '/v1/card-transactions?limit=200'],
  ['cardTransactions.retrieve', '/v1/card-transactions/2'],
  ['returns.list', '/v1/returns'],
  ['returns.retrieve', '/v1/returns/3'],
  ['locations.list', '/v1/locations'],
  ['locations.update', '/v1/locations/1', { email: 'front@ridgeline.example' }],
  ['products.list', '/v1/products?include=inventory&limit=200'],
  ['products.update', '/v1/products/2', { reorder_qty: 8 }],
  ['inventory.list', '/v1/inventory?limit=200'],
  ['inventory.listSerialized', '/v1/inventory/serialized?limit=200'],
  ['inventory.adjust', '/v1/inventory/adjust', { sku: 'TGT-BC-SNC12', qty_delta: 3 }],
  ['inventory.set', '/v1/inventory/set', { sku: 'TGT-BC-SNC12', qty_on_hand: 30 }],
  ['purchaseOrders.create', '/v1/purchase-orders', { vendor_id: 1, lines: [{ sku: 'ACC-EYE-CLR', qty: 6 }] }],
  ['purchaseOrders.update', '/v1/purchase-orders/1', { note: 'Rush' }],
  ['purchaseOrders.submit', '/v1/purchase-orders/1/submit'],
  ['purchaseOrders.receive', '/v1/purchase-orders/1/receive', { all_outstanding: true }],
  ['purchaseOrders.cancel', '/v1/purchase-orders/2/cancel'],
  ['orders.create', '/v1/orders', { customer_id: 1, lines: [{ sku: 'FA-GLK-G19G5', qty: 1 }] }],
  ['orders.void', '/v1/orders/2/void'],
  ['customers.account.retrieve', '/v1/customers/2/account'],
  ['customers.account.payments.create', '/v1/customers/2/account/payments', { amount_cents: 500 }],
  ['customers.storeCredit.retrieve', '/v1/customers/6/store-credit'],
  ['customers.storeCredit.issue', '/v1/customers/6/store-credit/issue', { amount_cents: 100 }],
  ['customers.storeCredit.redeem', '/v1/customers/6/store-credit/redeem', { amount_cents: 100 }],
  ['storeCredit.list', '/v1/store-credit'],
  ['invoices.list', '/v1/invoices'],
  ['invoices.retrieve', '/v1/invoices/2'],
  ['accountPayments.list', '/v1/account-payments'],
  ['giftCertificates.issue', '/v1/gift-certificates', { amount_cents: 5000 }],
  ['giftCertificates.redeem', '/v1/gift-certificates/1/redeem', { amount_cents: 500 }],
  ['giftCertificates.reverse', '/v1/gift-certificates/1/reverse'],
  ['giftCertificates.reload', '/v1/gift-certificates/1/reload', { amount_cents: 500 }],
  ['giftCertificates.adjust', '/v1/gift-certificates/1/adjust', { amount_cents: -100 }],
  ['giftCertificates.disable', '/v1/gift-certificates/1/disable'],
  ['giftCertificates.enable', '/v1/gift-certificates/1/enable'],
  ['coupons.create', '/v1/coupons', { code: 'NEW10', percent_off: 10 }],
  ['coupons.update', '/v1/coupons/1', { active: false }],
  ['coupons.delete', '/v1/coupons/1'],
  ['me.retrieve', '/v1/me'],
];

/** The path of an operation with its own ids, for the permission sweep. */
const concrete = (path: string) => path.replace('{id}', '1');

describe('sandbox shop endpoints against the generated contract', () => {
  it('answers every operation with data the generated schemas accept, at its success status', async () => {
    const sandbox = newSandbox({ plan: 'enterprise' });
    sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/all', types: ['*'] });
    const key = sandbox.createKey();
    for (const [id, path, body] of SCENARIO) {
      const operation = operations[id];
      const template = new RegExp(`^${operation.path.replace('{id}', '\\d+')}(\\?|$)`);
      expect(path, id).toMatch(template);
      const res = await call(sandbox, operation.method, path, { key, body, headers: idempotent() });
      expect(res.status, `${id} ${JSON.stringify(res.json)}`).toBe(operation.successStatus);
      if (operation.pagination === 'cursor') {
        expectValid(ListMetaSchema, res.json.meta, `${id} meta`);
        expect(res.json.data.length, id).toBeGreaterThan(0);
        for (const item of res.json.data) expectValid(OPERATION_SCHEMAS[id].result, item, id);
      } else {
        expectValid(OPERATION_SCHEMAS[id].result, res.json.data, id);
      }
    }
    sandbox.clock.advance('5d');
    const events = await listAll(sandbox, '/v1/events?limit=200', key);
    expect(events.length).toBeGreaterThan(30);
    for (const event of events) {
      expectValid(EventSchema, event, event.type);
      const schema = EVENT_PAYLOAD_SCHEMAS[event.type as keyof typeof EVENT_PAYLOAD_SCHEMAS];
      expect(schema, event.type).toBeDefined();
      expectValid(schema, event.data.object, event.type);
    }
  });

  it('asks each operation for the permission the spec names (403 INSUFFICIENT_SCOPE with details.required)', async () => {
    const sandbox = newSandbox({ plan: 'enterprise' });
    const nothing = sandbox.createKey({ permissions: [] });
    for (const [id] of SCENARIO) {
      const operation = operations[id];
      if (operation.permission === null) continue;
      const body = operation.method === 'GET' ? undefined : {};
      const res = await call(sandbox, operation.method, concrete(operation.path), { key: nothing, body });
      expect([res.status, res.json.error.code, res.json.error.details], id).toEqual([
        403,
        'INSUFFICIENT_SCOPE',
        { required: operation.permission },
      ]);
      const granted = sandbox.createKey({ permissions: [operation.permission as Permission] });
      const allowed = await call(sandbox, operation.method, concrete(operation.path), { key: granted, body });
      expect(allowed.status, id).not.toBe(403);
    }
  });

  it('requires an Idempotency-Key exactly where the spec marks a balance move', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    for (const [id] of SCENARIO) {
      const operation = operations[id];
      if (operation.method !== 'POST') continue;
      const res = await call(sandbox, 'POST', concrete(operation.path), { key, body: {} });
      const required = res.json.error?.code === 'IDEMPOTENCY_KEY_REQUIRED';
      expect(required, id).toBe(operation.idempotency === 'required');
    }
  });

  it('GET /v1/me describes the key and the shop, never the key itself', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['products:read', 'inventory:write'], locations: [2] });
    const res = await call(sandbox, 'GET', '/v1/me', { key });
    expect(res.json.data).toMatchObject({
      object: 'api_key',
      environment: 'sandbox',
      livemode: false,
      permissions: ['inventory:write', 'products:read'],
      locations: [2],
      expires_at: null,
      shop: { plan: 'established', range_addon: true, card_processing: true, memberships: true },
    });
    expect(JSON.stringify(res.json)).not.toContain(key);
  });
});

describe('sandbox shop endpoints over HTTP', () => {
  let sandbox: Sandbox;
  let server: SandboxServer;
  beforeAll(async () => {
    sandbox = newSandbox();
    server = await sandbox.listen();
  });
  afterAll(() => server.close());

  it('serves stock moved at the register and replays a balance move sent twice with one Idempotency-Key', async () => {
    const key = sandbox.createKey();
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    sandbox.register.sell({ lines: [{ sku: 'ACC-WLK-RAZOR', qty: 2 }] });
    const levels = await fetch(`${server.url}/v1/inventory?updated_since=${sandbox.clock.iso()}`, {
      headers,
    });
    expect((await levels.json()).data).toEqual([expect.objectContaining({ product_id: 3, qty_on_hand: 5 })]);
    const send = () =>
      fetch(`${server.url}/v1/gift-certificates/2/redeem`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': 'redeem-once' },
        body: JSON.stringify({ amount_cents: 250 }),
      });
    const first = await send();
    const second = await send();
    expect([first.status, second.status, second.headers.get('idempotent-replayed')]).toEqual([
      200,
      200,
      'true',
    ]);
    expect((await second.json()).data.balance_cents).toBe(3000);
    expect(sandbox.world.state.promotions.giftCertificates.get(2)!.balance_cents).toBe(3000);
    const missing = await fetch(`${server.url}/v1/gift-certificates/2/redeem`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ amount_cents: 250 }),
    });
    expect([missing.status, (await missing.json()).error.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
  });
});
