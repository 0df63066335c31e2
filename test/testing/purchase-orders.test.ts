import { describe, expect, it } from 'vitest';
import { PurchaseOrderSchema, ReceivingSchema } from '../../src/generated/schemas.js';
import { call, newSandbox } from './helpers.js';
import { withFeed } from './shop-helpers.js';

const onHand = (sandbox: ReturnType<typeof newSandbox>, productId: number, locationId: number) =>
  sandbox.world.state.inventory.levels.find(
    (row) => row.level.product_id === productId && row.location_id === locationId,
  )?.level.qty_on_hand;

describe('sandbox purchase orders', () => {
  it('creates a draft (purchase_order.created) or submits at once (also purchase_order.submitted)', async () => {
    const { sandbox, key, events } = withFeed();
    const draft = await call(sandbox, 'POST', '/v1/purchase-orders', {
      key,
      body: {
        vendor_id: 1,
        location_id: 2,
        channel_order_id: 'CH-7001',
        lines: [{ sku: 'TGT-BC-SNC12', qty: 10 }],
      },
    });
    expect(draft.status).toBe(201);
    expect(PurchaseOrderSchema.safeParse(draft.json.data).success).toBe(true);
    expect(draft.json.data).toMatchObject({
      object: 'purchase_order',
      status: 'draft',
      vendor_id: 1,
      location_id: 2,
      channel_order_id: 'CH-7001',
      lines: [
        expect.objectContaining({ sku: 'TGT-BC-SNC12', qty: 10, qty_received: 0, unit_cost_cents: 700 }),
      ],
    });
    const submitted = await call(sandbox, 'POST', '/v1/purchase-orders', {
      key,
      body: { vendor_id: 2, submit: true, lines: [{ sku: 'ACC-WLK-RAZOR', qty: 2, unit_cost_cents: 3500 }] },
    });
    expect(submitted.json.data).toMatchObject({
      status: 'submitted',
      location_id: 1,
      total_cost_cents: 7000,
    });
    expect((await events()).map((event) => [event.type, event.data.object.id])).toEqual([
      ['purchase_order.created', draft.json.data.id],
      ['purchase_order.created', submitted.json.data.id],
      ['purchase_order.submitted', submitted.json.data.id],
    ]);
  });

  it('refuses a taken channel_order_id, unknown references and submitting no lines', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const create = (body: unknown) => call(sandbox, 'POST', '/v1/purchase-orders', { key, body });
    const duplicate = await create({ vendor_id: 1, channel_order_id: 'CH-5001', lines: [] });
    expect([duplicate.status, duplicate.json.error.code, duplicate.json.error.details]).toEqual([
      409,
      'DUPLICATE_PURCHASE_ORDER',
      { existing_id: 2 },
    ]);
    const unknown = await create({ vendor_id: 7, lines: [{ sku: 'NOPE', qty: 1 }] });
    expect([unknown.status, unknown.json.error.code, Object.keys(unknown.json.error.details)]).toEqual([
      422,
      'INVALID_REFERENCE',
      ['vendor_id', 'lines[0].sku'],
    ]);
    const empty = await create({ vendor_id: 1, submit: true, lines: [] });
    expect([empty.status, empty.json.error.code]).toEqual([422, 'EMPTY_PO']);
    const bad = await create({ lines: [{ qty: 0 }] });
    expect([bad.status, Object.keys(bad.json.error.details).sort()]).toEqual([
      400,
      ['lines[0].qty', 'lines[0].sku', 'vendor_id'],
    ]);
  });

  it('changes a draft; vendor or lines of a submitted PO are 409 PO_SUBMITTED', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const draft = await call(sandbox, 'PATCH', '/v1/purchase-orders/1', {
      key,
      body: { vendor_id: 2, lines: [{ sku: 'AMMO-FED-9MM-50', qty: 60 }], expected_on: '2026-10-09' },
    });
    expect(draft.json.data).toMatchObject({
      vendor_id: 2,
      expected_on: '2026-10-09',
      lines: [expect.objectContaining({ qty: 60 })],
    });
    const locked = await call(sandbox, 'PATCH', '/v1/purchase-orders/2', { key, body: { vendor_id: 1 } });
    expect([locked.status, locked.json.error.code]).toEqual([409, 'PO_SUBMITTED']);
    const note = await call(sandbox, 'PATCH', '/v1/purchase-orders/2', {
      key,
      body: { note: 'Call before delivery' },
    });
    expect(note.json.data.note).toBe('Call before delivery');
    const notWritable = await call(sandbox, 'PATCH', '/v1/purchase-orders/1', {
      key,
      body: { status: 'received' },
    });
    expect(notWritable.status).toBe(400);
  });

  it('submits drafts (422 EMPTY_PO without lines) and cancels where the state allows (409 INVALID_STATE)', async () => {
    const { sandbox, key, events } = withFeed();
    const empty = await call(sandbox, 'POST', '/v1/purchase-orders/4/submit', { key });
    expect([empty.status, empty.json.error.code]).toEqual([422, 'EMPTY_PO']);
    const submitted = await call(sandbox, 'POST', '/v1/purchase-orders/1/submit', { key });
    expect(submitted.json.data.status).toBe('submitted');
    const twice = await call(sandbox, 'POST', '/v1/purchase-orders/1/submit', { key });
    expect([twice.status, twice.json.error.code]).toEqual([409, 'INVALID_STATE']);
    const cancelled = await call(sandbox, 'POST', '/v1/purchase-orders/1/cancel', { key });
    expect(cancelled.json.data).toMatchObject({ status: 'cancelled', cancelled_at: sandbox.clock.iso() });
    for (const id of [1, 5]) {
      const refused = await call(sandbox, 'POST', `/v1/purchase-orders/${id}/cancel`, { key });
      expect([refused.status, refused.json.error.code]).toEqual([409, 'INVALID_STATE']);
    }
    expect((await events()).map((event) => event.type)).toEqual([
      'purchase_order.submitted',
      'purchase_order.cancelled',
    ]);
  });

  it('receives non-serialized lines (receiving.posted, inventory.changed) and lists serialized ones in skipped', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'POST', '/v1/purchase-orders/2/receive', {
      key,
      body: { all_outstanding: true, reference: 'PS-88121' },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.skipped).toEqual([
      {
        purchase_order_line_id: expect.any(Number),
        product_id: 8,
        sku: 'FA-GLK-G19G5',
        qty_outstanding: 2,
        reason: 'serialized',
      },
    ]);
    expect(res.json.data.purchase_order.status).toBe('partially_received');
    expect(onHand(sandbox, 7, 1)).toBe(2 + 24);
    const fired = await events();
    expect(fired.map((event) => event.type)).toEqual(['receiving.posted', 'inventory.changed']);
    expect(ReceivingSchema.safeParse(fired[0].data.object).success).toBe(true);
    expect(fired[0].data.object).toMatchObject({
      purchase_order_id: 2,
      reference: 'PS-88121',
      vendor_id: 2,
      status: 'posted',
    });
    expect(fired[0].data.object.lines).toEqual([expect.objectContaining({ product_id: 7, qty: 24 })]);
    expect(JSON.stringify(fired[0].data.object)).not.toMatch(/serial/);
    expect(fired[1].data.object).toMatchObject({ product_id: 7, qty_delta: 24, reason: 'receive' });
    const again = await call(sandbox, 'POST', '/v1/purchase-orders/2/receive', {
      key,
      body: { all_outstanding: true },
    });
    expect([again.status, again.json.error.code]).toEqual([409, 'NOTHING_OUTSTANDING']);
    expect(again.json.error.details.skipped).toEqual(res.json.data.skipped);
  });

  it('answers NOTHING_OUTSTANDING for a PO of firearms only and SERIALIZED when a serialized line is named', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const firearms = await call(sandbox, 'POST', '/v1/purchase-orders/3/receive', {
      key,
      body: { all_outstanding: true },
    });
    expect([firearms.status, firearms.json.error.code, firearms.json.error.details.skipped[0].sku]).toEqual([
      409,
      'NOTHING_OUTSTANDING',
      'FA-RUG-1022',
    ]);
    const named = await call(sandbox, 'POST', '/v1/purchase-orders/2/receive', {
      key,
      body: { lines: [{ sku: 'FA-GLK-G19G5', qty: 1 }] },
    });
    expect([named.status, named.json.error.code]).toEqual([409, 'SERIALIZED']);
    const partial = await call(sandbox, 'POST', '/v1/purchase-orders/2/receive', {
      key,
      body: { lines: [{ sku: 'ACC-EYE-CLR', qty: 4 }] },
    });
    expect(partial.json.data.receiving.lines).toEqual([expect.objectContaining({ qty: 4 })]);
    const draft = await call(sandbox, 'POST', '/v1/purchase-orders/1/receive', {
      key,
      body: { all_outstanding: true },
    });
    expect([draft.status, draft.json.error.code]).toEqual([409, 'INVALID_STATE']);
    const missing = await call(sandbox, 'POST', '/v1/purchase-orders/2/receive', { key, body: {} });
    expect(missing.status).toBe(400);
  });

  it('answers 404 for a PO at a location the key cannot see, and 405 for a read', async () => {
    const sandbox = newSandbox();
    const north = sandbox.createKey({ permissions: ['purchase_orders:write'], locations: [2] });
    expect((await call(sandbox, 'POST', '/v1/purchase-orders/1/submit', { key: north })).status).toBe(404);
    const read = await call(sandbox, 'GET', '/v1/purchase-orders/1', { key: north });
    expect([read.status, read.json.error.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
  });
});
