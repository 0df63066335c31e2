import { describe, expect, it } from 'vitest';
import { OrderSchema } from '../../src/generated/schemas.js';
import { SandboxUsageError } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';
import { withFeed } from './shop-helpers.js';

const stock = (sandbox: ReturnType<typeof newSandbox>, productId: number, locationId = 1) =>
  sandbox.world.state.inventory.levels.find(
    (row) => row.level.product_id === productId && row.location_id === locationId,
  )?.level;

describe('sandbox orders from outside channels', () => {
  it('creates a completed order (order.created) and takes its stock (inventory.changed, reason sale)', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: {
        external_reference: 'MKT-501',
        customer_id: 2,
        lines: [
          { sku: 'AMMO-FED-9MM-50', qty: 3 },
          { sku: 'SVC-CLEAN-BASIC', qty: 1, unit_price_cents: 3000 },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(OrderSchema.safeParse(res.json.data).success).toBe(true);
    expect(res.json.data).toMatchObject({
      status: 'completed',
      source: 'api',
      external_reference: 'MKT-501',
      location_id: 1,
      total_cents: 3 * 1999 + 3000,
      customer: { object: 'customer', id: 2 },
    });
    expect(stock(sandbox, 1)).toMatchObject({ qty_on_hand: 45, qty_available: 45 });
    const fired = await events();
    expect(fired.map((event) => event.type)).toEqual(['order.created', 'inventory.changed']);
    expect(fired[1].data.object).toMatchObject({ product_id: 1, qty_delta: -3, reason: 'sale' });
  });

  it("returns the same API order for a repeated external_reference; another channel's reference is 409", async () => {
    const { sandbox, key, events } = withFeed();
    const body = { external_reference: 'MKT-502', lines: [{ sku: 'TGT-BC-SNC12', qty: 1 }] };
    const first = await call(sandbox, 'POST', '/v1/orders', { key, body });
    const again = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: { ...body, lines: [{ sku: 'ACC-EYE-CLR', qty: 1 }] },
    });
    expect([first.status, again.status, again.json.data.id]).toEqual([201, 200, first.json.data.id]);
    expect(await events('order.created')).toHaveLength(1);
    expect(stock(sandbox, 4)?.qty_on_hand).toBe(24);
    const taken = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: { ...body, external_reference: 'SHOP-1001' },
    });
    expect([taken.status, taken.json.error.code]).toEqual([409, 'EXTERNAL_REFERENCE_TAKEN']);
  });

  it('a held order reserves stock (qty_delta 0, reason hold); a firearm awaits transfer with its unit held', async () => {
    const { sandbox, key, events } = withFeed();
    const held = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: { status: 'held', lines: [{ sku: 'ACC-WLK-RAZOR', qty: 2 }] },
    });
    expect(held.json.data.status).toBe('held');
    expect(stock(sandbox, 3)).toMatchObject({ qty_on_hand: 7, qty_reserved: 2, qty_available: 5 });
    const gun = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: { customer_id: 1, lines: [{ sku: 'FA-RUG-1022', qty: 1 }] },
    });
    expect(gun.json.data.status).toBe('awaiting_transfer');
    expect(stock(sandbox, 9)).toMatchObject({ qty_on_hand: 2, qty_reserved: 1, qty_available: 1 });
    const changes = (await events('inventory.changed')).map((event) => [
      event.data.object.product_id,
      event.data.object.qty_delta,
      event.data.object.reason,
    ]);
    expect(changes).toEqual([
      [3, 0, 'hold'],
      [9, 0, 'hold'],
    ]);
    const units = sandbox.world.state.inventory.units.filter((unit) => unit.product_id === 9);
    expect(units.map((unit) => unit.status)).toEqual(['held', 'in_stock']);
  });

  it('refuses more than is available (409 INSUFFICIENT_STOCK) and unknown SKUs or customers (422 INVALID_REFERENCE)', async () => {
    const { sandbox, key, events } = withFeed();
    const short = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: { lines: [{ sku: 'ACC-EYE-CLR', qty: 3 }] },
    });
    expect([short.status, short.json.error.code]).toEqual([409, 'INSUFFICIENT_STOCK']);
    const twoLines = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: {
        location_id: 2,
        lines: [
          { sku: 'APP-TEE-RR-L', qty: 1 },
          { sku: 'APP-TEE-RR-L', qty: 1 },
        ],
      },
    });
    expect(twoLines.json.error.code).toBe('INSUFFICIENT_STOCK');
    const unknown = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: { customer_id: 99, lines: [{ sku: 'NOPE', qty: 1 }] },
    });
    expect([unknown.status, unknown.json.error.code, Object.keys(unknown.json.error.details)]).toEqual([
      422,
      'INVALID_REFERENCE',
      ['customer_id', 'lines[0].sku'],
    ]);
    const empty = await call(sandbox, 'POST', '/v1/orders', { key, body: {} });
    expect(empty.status).toBe(400);
    expect(await events()).toEqual([]);
  });

  it('reduces the embedded customer without customers:read', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['orders:write'] });
    const res = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: { customer_id: 3, lines: [{ sku: 'TGT-BC-SNC12', qty: 1 }] },
    });
    expect(res.json.data.customer).toEqual({ object: 'customer', id: 3 });
  });
});

describe('sandbox order void', () => {
  it('voids an order (sale.voided) and puts its stock back (reason void)', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'POST', '/v1/orders/2/void', { key });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: 2, status: 'voided' });
    expect(stock(sandbox, 3)?.qty_on_hand).toBe(8);
    const fired = await events();
    expect(fired.map((event) => event.type)).toEqual(['sale.voided', 'inventory.changed']);
    expect(fired[0].data.object.customer).toMatchObject({ id: 2, email: expect.any(String) });
    expect(fired[1].data.object).toMatchObject({ qty_delta: 1, reason: 'void' });
    const again = await call(sandbox, 'POST', '/v1/orders/2/void', { key });
    expect([again.status, again.json.error.code]).toEqual([409, 'ALREADY_VOIDED']);
  });

  it('refuses firearm orders (FIREARM_ORDER), voided ones (ALREADY_VOIDED) and refunded ones (SALE_REFUNDED)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    for (const [id, code] of [
      [3, 'FIREARM_ORDER'],
      [4, 'ALREADY_VOIDED'],
      [1, 'SALE_REFUNDED'],
    ] as const) {
      const res = await call(sandbox, 'POST', `/v1/orders/${id}/void`, { key });
      expect([res.status, res.json.error.code]).toEqual([409, code]);
    }
    const held = await call(sandbox, 'POST', '/v1/orders', {
      key,
      body: { status: 'held', lines: [{ sku: 'ACC-WLK-RAZOR', qty: 2 }] },
    });
    await call(sandbox, 'POST', `/v1/orders/${held.json.data.id}/void`, { key });
    expect(stock(sandbox, 3)).toMatchObject({ qty_on_hand: 7, qty_reserved: 0, qty_available: 7 });
    const north = sandbox.createKey({ permissions: ['orders:write'], locations: [2] });
    expect((await call(sandbox, 'POST', '/v1/orders/2/void', { key: north })).status).toBe(404);
  });
});

describe('sandbox register.sell', () => {
  it('rings up a completed sale: sale.completed, then inventory.changed per tracked line', async () => {
    const { sandbox, key, events } = withFeed();
    const order = sandbox.register.sell({
      customerId: 4,
      locationId: 2,
      lines: [{ sku: 'AMMO-FED-9MM-50', qty: 4 }, { productId: 11 }, { sku: 'AMMO-HRN-65CM-140' }],
    });
    expect(order).toMatchObject({
      status: 'completed',
      source: 'pos',
      location_id: 2,
      total_cents: 4 * 1999 + 3500 + 2899,
    });
    const fired = await events();
    expect(fired.map((event) => event.type)).toEqual([
      'sale.completed',
      'inventory.changed',
      'inventory.changed',
    ]);
    expect(
      fired
        .slice(1)
        .map((event) => [
          event.data.object.sku,
          event.data.object.qty_delta,
          event.data.object.qty_available,
        ]),
    ).toEqual([
      ['AMMO-FED-9MM-50', -4, 26],
      ['AMMO-HRN-65CM-140', -1, 5],
    ]);
    const levels = await call(sandbox, 'GET', `/v1/inventory?updated_since=${sandbox.clock.iso()}`, { key });
    expect(levels.json.data).toHaveLength(2);
  });

  it('sells a firearm as awaiting_transfer and refuses what the register would', () => {
    const sandbox = newSandbox();
    expect(sandbox.register.sell({ lines: [{ sku: 'NFA-SCO-OMEGA36' }] }).status).toBe('awaiting_transfer');
    expect(() => sandbox.register.sell({ lines: [{ sku: 'NFA-SCO-OMEGA36' }] })).toThrow(SandboxUsageError);
    expect(() => sandbox.register.sell({ lines: [] })).toThrow(SandboxUsageError);
    expect(() => sandbox.register.sell({ lines: [{ sku: 'NOPE' }] })).toThrow(SandboxUsageError);
    expect(() => sandbox.register.sell({ customerId: 99, lines: [{ productId: 1 }] })).toThrow(
      SandboxUsageError,
    );
  });
});
