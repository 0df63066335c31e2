import { describe, expect, it } from 'vitest';
import { ProductSchema } from '../../src/generated/schemas.js';
import { call, listAll, newSandbox } from './helpers.js';
import { withFeed } from './shop-helpers.js';

describe('sandbox products', () => {
  it('lists products oldest first; include=inventory adds levels at the key locations', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['products:read'] });
    const products = await listAll(sandbox, '/v1/products?limit=200', key);
    expect(products).toHaveLength(11 + 10);
    for (const product of products) expect(ProductSchema.safeParse(product).success).toBe(true);
    expect(products[0]).not.toHaveProperty('inventory');
    const byId = new Map(products.map((product) => [product.id, product]));
    expect(byId.get(8)).toMatchObject({ is_firearm: true, is_serialized: true, product_type: 'firearm' });
    expect(byId.get(10)).toMatchObject({ is_nfa: true });
    expect(byId.get(11)).toMatchObject({ track_inventory: false });
    expect(byId.get(1).reorder_qty).toBe(20);
    expect(byId.get(2).reorder_qty).toBeNull();
    expect(byId.get(9101)).toMatchObject({ sku: 'RNT-G19', is_firearm: true });
    expect(byId.get(2)).toMatchObject({
      price_cents: 3299,
      sale_price_cents: 2899,
      effective_price_cents: 2899,
    });
    const withStock = await listAll(sandbox, '/v1/products?include=inventory&limit=3', key);
    expect(withStock[0].inventory.map((level: { location_id: number }) => level.location_id)).toEqual([1, 2]);
    const north = sandbox.createKey({ permissions: ['products:read'], locations: [2] });
    const northStock = await listAll(sandbox, '/v1/products?include=inventory&limit=200', north);
    expect(northStock[0].inventory).toEqual([expect.objectContaining({ location_id: 2, qty_on_hand: 30 })]);
  });

  it('filters on updated_since and refuses an unknown include', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    sandbox.clock.advance('1h');
    const mark = sandbox.clock.iso();
    await call(sandbox, 'PATCH', '/v1/products/4', { key, body: { price_cents: 1399 } });
    expect((await listAll(sandbox, `/v1/products?updated_since=${mark}`, key)).map((row) => row.id)).toEqual([
      4,
    ]);
    const bad = await call(sandbox, 'GET', '/v1/products?include=photos', { key });
    expect([bad.status, Object.keys(bad.json.error.details)]).toEqual([400, ['include']]);
  });

  it('changes price, sale window, vendor, vendor SKU and reorder_qty; product.updated carries inventory', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'PATCH', '/v1/products/3', {
      key,
      body: {
        price_cents: 6499,
        sale_price_cents: 4999,
        sale_starts_at: '2026-10-01T00:00:00Z',
        sale_ends_at: '2026-10-02T00:00:00Z',
        vendor_id: 1,
        vendor_sku: 'W-RAZOR-1',
        reorder_qty: null,
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      price_cents: 6499,
      effective_price_cents: 4999,
      vendor_id: 1,
      vendor_sku: 'W-RAZOR-1',
      reorder_qty: null,
      updated_at: sandbox.clock.iso(),
    });
    expect(res.json.data.vendors).toEqual([
      { vendor_id: 2, vendor_sku: 'GWP-RSEM', preferred: false },
      { vendor_id: 1, vendor_sku: 'W-RAZOR-1', preferred: true },
    ]);
    const [event] = await events('product.updated');
    expect(event.data.object).toMatchObject({ id: 3, price_cents: 6499 });
    expect(event.data.object.inventory).toHaveLength(2);
    sandbox.clock.set('2026-10-02T00:00:00Z');
    expect((await listAll(sandbox, '/v1/products?limit=3', key))[2].effective_price_cents).toBe(6499);
  });

  it('refuses compliance fields with 409 COMPLIANCE_FIELD naming details.field', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const patch = (id: number, body: unknown) => call(sandbox, 'PATCH', `/v1/products/${id}`, { key, body });
    for (const [id, body, field] of [
      [1, { is_firearm: true }, 'is_firearm'],
      [8, { is_nfa: true }, 'is_nfa'],
      [8, { is_serialized: false }, 'is_serialized'],
      [1, { product_type: 'firearm' }, 'product_type'],
      [9, { product_type: 'accessory' }, 'product_type'],
    ] as const) {
      const res = await patch(id, body);
      expect([res.status, res.json.error.code, res.json.error.details], JSON.stringify(body)).toEqual([
        409,
        'COMPLIANCE_FIELD',
        { field },
      ]);
    }
    expect((await patch(8, { is_firearm: true, price_cents: 52_999 })).status).toBe(200);
    const stock = await patch(1, { is_serialized: true });
    expect([stock.status, stock.json.error.code]).toEqual([409, 'HAS_STOCK']);
  });

  it('refuses a SKU of another product (409 SKU_TAKEN) and fields the API does not write (400)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const taken = await call(sandbox, 'PATCH', '/v1/products/1', { key, body: { sku: 'acc-eye-clr' } });
    expect([taken.status, taken.json.error.code]).toEqual([409, 'SKU_TAKEN']);
    const renamed = await call(sandbox, 'PATCH', '/v1/products/1', {
      key,
      body: { sku: 'AMMO-FED-9MM-50B' },
    });
    expect(renamed.json.data.sku).toBe('AMMO-FED-9MM-50B');
    const bad = await call(sandbox, 'PATCH', '/v1/products/1', { key, body: { name: 'x', vendor_id: 9 } });
    expect([bad.status, Object.keys(bad.json.error.details).sort()]).toEqual([400, ['name', 'vendor_id']]);
    const missing = await call(sandbox, 'PATCH', '/v1/products/999', { key, body: { price_cents: 1 } });
    expect(missing.status).toBe(404);
  });
});
