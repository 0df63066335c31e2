import { describe, expect, it } from 'vitest';
import { InventoryChangedPayloadSchema, InventoryLevelSchema } from '../../src/generated/schemas.js';
import { call, listAll, newSandbox } from './helpers.js';
import { idempotent, withFeed } from './shop-helpers.js';

const level = (rows: { product_id: number; location_id: number }[], productId: number, locationId: number) =>
  rows.find((row) => row.product_id === productId && row.location_id === locationId);

describe('sandbox inventory levels and serialized units', () => {
  it('lists levels per product and location; firearms count their units (held units reserved)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['inventory:read'] });
    const rows = await listAll(sandbox, '/v1/inventory?limit=5', key);
    for (const row of rows) expect(InventoryLevelSchema.safeParse(row).success).toBe(true);
    expect(level(rows, 1, 1)).toMatchObject({ qty_on_hand: 48, qty_reserved: 0, qty_available: 48 });
    expect(level(rows, 8, 1)).toMatchObject({ qty_on_hand: 4, qty_reserved: 1, qty_available: 3 });
    expect(level(rows, 11, 1)).toBeUndefined();
    const north = sandbox.createKey({ permissions: ['inventory:read'], locations: [2] });
    const northRows = await listAll(sandbox, '/v1/inventory', north);
    expect(new Set(northRows.map((row) => row.location_id))).toEqual(new Set([2]));
  });

  it('filters levels on updated_since and pages with limit', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const mark = sandbox.clock.iso();
    expect(await listAll(sandbox, `/v1/inventory?updated_since=${mark}`, key)).toEqual([]);
    sandbox.register.sell({ lines: [{ sku: 'TGT-BC-SNC12', qty: 2 }] });
    const changed = await listAll(sandbox, `/v1/inventory?updated_since=${mark}`, key);
    expect(changed).toEqual([expect.objectContaining({ product_id: 4, location_id: 1, qty_on_hand: 23 })]);
    const page = await call(sandbox, 'GET', '/v1/inventory?limit=2', { key });
    expect(page.json.data).toHaveLength(2);
    expect(page.json.meta).toMatchObject({ limit: 2, has_more: true });
  });

  it('lists serial numbers by product and status', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const glocks = await listAll(sandbox, '/v1/inventory/serialized?product_id=8&status=in_stock', key);
    expect(glocks.map((unit) => unit.serial_number)).toEqual(['BXRK101', 'BXRK102', 'BXRK117', 'BXRK140']);
    const rentals = await listAll(sandbox, '/v1/inventory/serialized?status=rental', key);
    expect(rentals.map((unit) => unit.id)).toEqual([
      9501, 9502, 9503, 9504, 9505, 9506, 9507, 9508, 9509, 9510,
    ]);
    const north = sandbox.createKey({ permissions: ['inventory:read'], locations: [2] });
    const northGlocks = await listAll(sandbox, '/v1/inventory/serialized?product_id=8', north);
    expect(northGlocks.map((unit) => unit.serial_number)).toEqual(['BXRK140']);
  });
});

describe('sandbox stock writes', () => {
  it('adjust adds a signed delta and fires inventory.changed with qty_delta and reason', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'POST', '/v1/inventory/adjust', {
      key,
      headers: idempotent(),
      body: {
        sku: 'AMMO-FED-9MM-50',
        location_id: 2,
        qty_delta: -5,
        reason: 'damaged',
        note: 'Water damage',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      product_id: 1,
      location_id: 2,
      qty_on_hand: 25,
      qty_available: 25,
      qty_delta: -5,
    });
    const [event] = await events('inventory.changed');
    expect(InventoryChangedPayloadSchema.safeParse(event.data.object).success).toBe(true);
    expect(event.data.object).toMatchObject({
      sku: 'AMMO-FED-9MM-50',
      name: expect.any(String),
      qty_delta: -5,
      reason: 'damaged',
      qty_available: 25,
      updated_at: sandbox.clock.iso(),
    });
    const defaulted = await call(sandbox, 'POST', '/v1/inventory/adjust', {
      key,
      body: { sku: 'acc-eye-clr', qty_delta: 12, reason: 'receive' },
    });
    expect(defaulted.json.data).toMatchObject({ location_id: 1, qty_on_hand: 14, reason: 'receive' });
  });

  it('refuses untracked products (NOT_TRACKED), firearms (SERIALIZED) and going below zero (INSUFFICIENT_STOCK)', async () => {
    const { sandbox, key, events } = withFeed();
    const adjust = (body: unknown) => call(sandbox, 'POST', '/v1/inventory/adjust', { key, body });
    const untracked = await adjust({ sku: 'SVC-CLEAN-BASIC', qty_delta: 1 });
    expect([untracked.status, untracked.json.error.code]).toEqual([409, 'NOT_TRACKED']);
    const firearm = await adjust({ sku: 'FA-GLK-G19G5', qty_delta: 1 });
    expect([firearm.status, firearm.json.error.code]).toEqual([409, 'SERIALIZED']);
    const short = await adjust({ sku: 'ACC-EYE-CLR', location_id: 1, qty_delta: -3 });
    expect([short.status, short.json.error.code, short.json.error.details.qty_available]).toEqual([
      409,
      'INSUFFICIENT_STOCK',
      2,
    ]);
    const unknown = await adjust({ sku: 'NOPE', qty_delta: 1 });
    expect(unknown.status).toBe(404);
    const bad = await adjust({ sku: 'ACC-EYE-CLR', qty_delta: 0 });
    expect([bad.status, Object.keys(bad.json.error.details)]).toEqual([400, ['qty_delta']]);
    const north = sandbox.createKey({ permissions: ['inventory:write'], locations: [2] });
    const outside = await call(sandbox, 'POST', '/v1/inventory/adjust', {
      key: north,
      body: { sku: 'ACC-EYE-CLR', location_id: 1, qty_delta: 1 },
    });
    expect(outside.status).toBe(404);
    expect(await events('inventory.changed')).toEqual([]);
  });

  it('set writes an absolute count (reason count, qty_delta the difference); serialized products are 409 SERIALIZED', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'POST', '/v1/inventory/set', {
      key,
      body: { sku: 'CLN-HOP-UNIV', location_id: 2, qty_on_hand: 11 },
    });
    expect(res.json.data).toMatchObject({ qty_on_hand: 11, qty_delta: 7, reason: 'count' });
    const [event] = await events('inventory.changed');
    expect(event.data.object).toMatchObject({ product_id: 5, location_id: 2, qty_delta: 7, reason: 'count' });
    const unchanged = await call(sandbox, 'POST', '/v1/inventory/set', {
      key,
      body: { sku: 'CLN-HOP-UNIV', location_id: 2, qty_on_hand: 11 },
    });
    expect(unchanged.json.data.qty_delta).toBe(0);
    const firstCount = await call(sandbox, 'POST', '/v1/inventory/set', {
      key,
      body: { sku: 'ACC-WLK-RAZOR', location_id: 2, qty_on_hand: 3 },
    });
    expect(firstCount.json.data).toMatchObject({ qty_on_hand: 3, qty_delta: 0 });
    expect(await events('inventory.changed')).toHaveLength(1);
    const serialized = await call(sandbox, 'POST', '/v1/inventory/set', {
      key,
      body: { sku: 'FA-RUG-1022', qty_on_hand: 5 },
    });
    expect([serialized.status, serialized.json.error.code]).toEqual([409, 'SERIALIZED']);
    const untracked = await call(sandbox, 'POST', '/v1/inventory/set', {
      key,
      body: { sku: 'SVC-CLEAN-BASIC', qty_on_hand: 5 },
    });
    expect(untracked.json.error.code).toBe('NOT_TRACKED');
  });
});
