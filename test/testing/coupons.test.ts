import { describe, expect, it } from 'vitest';
import { CouponSchema, DeletedObjectSchema } from '../../src/generated/schemas.js';
import { call, newSandbox } from './helpers.js';
import { withFeed } from './shop-helpers.js';

describe('sandbox coupons', () => {
  it('creates (coupon.created), changes (coupon.updated) and deletes (coupon.deleted {id, deleted})', async () => {
    const { sandbox, key, events } = withFeed();
    const created = await call(sandbox, 'POST', '/v1/coupons', {
      key,
      body: { code: 'FALL25', amount_off_cents: 2500, location_id: 1, channel: 'store_online' },
    });
    expect(created.status).toBe(201);
    expect(CouponSchema.safeParse(created.json.data).success).toBe(true);
    expect(created.json.data).toMatchObject({
      code: 'FALL25',
      name: 'FALL25',
      channel: 'store_online',
      location_id: 1,
      active: true,
    });
    const id = created.json.data.id;
    const updated = await call(sandbox, 'PATCH', `/v1/coupons/${id}`, {
      key,
      body: { name: 'Fall sale', location_id: null },
    });
    expect(updated.json.data).toMatchObject({ name: 'Fall sale', location_id: null, amount_off_cents: 2500 });
    const deleted = await call(sandbox, 'DELETE', `/v1/coupons/${id}`, { key });
    expect(deleted.json.data).toEqual({ object: 'coupon', id, deleted: true });
    const fired = await events();
    expect(fired.map((event) => event.type)).toEqual(['coupon.created', 'coupon.updated', 'coupon.deleted']);
    expect(fired[2].data.object).toEqual({ id, deleted: true });
    expect(DeletedObjectSchema.safeParse(fired[2].data.object).success).toBe(true);
    expect((await call(sandbox, 'PATCH', `/v1/coupons/${id}`, { key, body: { name: 'x' } })).status).toBe(
      404,
    );
    const reuse = await call(sandbox, 'POST', '/v1/coupons', {
      key,
      body: { code: 'FALL25', percent_off: 5 },
    });
    expect(reuse.status).toBe(201);
  });

  it('refuses a code in use (409 CODE_TAKEN, without case) on create and on change', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const taken = await call(sandbox, 'POST', '/v1/coupons', {
      key,
      body: { code: 'spring10', percent_off: 5 },
    });
    expect([taken.status, taken.json.error.code]).toEqual([409, 'CODE_TAKEN']);
    const rename = await call(sandbox, 'PATCH', '/v1/coupons/2', { key, body: { code: 'WEB15' } });
    expect([rename.status, rename.json.error.code]).toEqual([409, 'CODE_TAKEN']);
    const same = await call(sandbox, 'PATCH', '/v1/coupons/2', { key, body: { code: 'RANGEDAY5' } });
    expect(same.status).toBe(200);
  });

  it('refuses a store_online coupon limited to a location without a storefront (400 VALIDATION_ERROR)', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'POST', '/v1/coupons', {
      key,
      body: { code: 'NORTHWEB', percent_off: 10, channel: 'store_online', location_id: 2 },
    });
    expect([res.status, res.json.error.code, Object.keys(res.json.error.details)]).toEqual([
      400,
      'VALIDATION_ERROR',
      ['location_id'],
    ]);
    const patch = await call(sandbox, 'PATCH', '/v1/coupons/4', { key, body: { channel: 'store_online' } });
    expect([patch.status, patch.json.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const shopWide = await call(sandbox, 'POST', '/v1/coupons', {
      key,
      body: { code: 'ALLWEB', percent_off: 10, channel: 'store_online' },
    });
    expect(shopWide.status).toBe(201);
    expect((await events()).map((event) => event.type)).toEqual(['coupon.created']);
  });

  it('validates the discount and answers 404 for coupons at locations the key cannot see', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const both = await call(sandbox, 'POST', '/v1/coupons', {
      key,
      body: { code: 'X1', percent_off: 5, amount_off_cents: 100 },
    });
    expect([both.status, Object.keys(both.json.error.details)]).toEqual([400, ['percent_off']]);
    const north = sandbox.createKey({ permissions: ['coupons:write'], locations: [2] });
    expect((await call(sandbox, 'DELETE', '/v1/coupons/2', { key: north })).status).toBe(404);
    expect(
      (await call(sandbox, 'PATCH', '/v1/coupons/1', { key: north, body: { active: false } })).status,
    ).toBe(200);
    const outside = await call(sandbox, 'POST', '/v1/coupons', {
      key: north,
      body: { code: 'X2', percent_off: 5, location_id: 1 },
    });
    expect(outside.status).toBe(404);
  });
});
