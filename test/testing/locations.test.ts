import { describe, expect, it } from 'vitest';
import { LocationSchema } from '../../src/generated/schemas.js';
import { call, listAll, newSandbox } from './helpers.js';
import { withFeed } from './shop-helpers.js';

describe('sandbox locations', () => {
  it('lists the locations the key can see', async () => {
    const sandbox = newSandbox();
    const all = await listAll(
      sandbox,
      '/v1/locations',
      sandbox.createKey({ permissions: ['locations:read'] }),
    );
    expect(all.map((row) => [row.id, row.storefront_location_id])).toEqual([
      [1, 'sf_loc_main'],
      [2, null],
    ]);
    for (const row of all) expect(LocationSchema.safeParse(row).success).toBe(true);
    const north = sandbox.createKey({ permissions: ['locations:read'], locations: [2] });
    expect((await listAll(sandbox, '/v1/locations', north)).map((row) => row.id)).toEqual([2]);
  });

  it('changes phone, email and business_hours and fires location.updated', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'PATCH', '/v1/locations/2', {
      key,
      body: { phone: '+12085559999', business_hours: 'Daily 10:00-19:00' },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      id: 2,
      phone: '+12085559999',
      business_hours: 'Daily 10:00-19:00',
    });
    expect(res.json.data.updated_at).toBe(sandbox.clock.iso());
    const [event] = await events('location.updated');
    expect(event.data.object).toMatchObject({ object: 'location', id: 2, phone: '+12085559999' });
    const same = await call(sandbox, 'PATCH', '/v1/locations/2', { key, body: { phone: '+12085559999' } });
    expect(same.status).toBe(200);
    expect(await events('location.updated')).toHaveLength(1);
  });

  it('refuses any other field with 409 FIELD_NOT_WRITABLE naming them in details.fields', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const res = await call(sandbox, 'PATCH', '/v1/locations/1', {
      key,
      body: { phone: '+12085550000', name: 'Renamed', storefront_location_id: 'x' },
    });
    expect([res.status, res.json.error.code]).toEqual([409, 'FIELD_NOT_WRITABLE']);
    expect(res.json.error.details).toEqual({ fields: ['name', 'storefront_location_id'] });
    expect(sandbox.world.state.shop.locations.get(1)!.phone).not.toBe('+12085550000');
  });

  it('validates the values and answers 404 outside a limited key', async () => {
    const sandbox = newSandbox();
    const bad = await call(sandbox, 'PATCH', '/v1/locations/1', {
      key: sandbox.createKey(),
      body: { email: 'nope' },
    });
    expect([bad.status, Object.keys(bad.json.error.details)]).toEqual([400, ['email']]);
    const north = sandbox.createKey({ permissions: ['locations:write'], locations: [2] });
    const hidden = await call(sandbox, 'PATCH', '/v1/locations/1', { key: north, body: { phone: '+1' } });
    expect([hidden.status, hidden.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
