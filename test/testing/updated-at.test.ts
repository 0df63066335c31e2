// Receivers skip an event whose updated_at is older than the one they hold (reference section 6, rules 4
// and 5). On the frozen clock every change happens in the same millisecond, so the sandbox keeps each
// record's updated_at strictly increasing: the clock's time, or 1 ms past the record's last change.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { at, call, newSandbox } from './helpers.js';
import { idempotent, withFeed } from './shop-helpers.js';

/** A JSON call that must succeed; returns `data`. */
async function ok(sandbox: Sandbox, key: string, method: string, path: string, body?: unknown) {
  const res = await call(sandbox, method, path, { key, body, headers: idempotent() });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data;
}

type Change = (sandbox: Sandbox, key: string) => Promise<{ updated_at: string }>;

const cases: [string, Change, Change][] = [
  [
    'inventory level (adjust, then adjust)',
    (s, k) =>
      ok(s, k, 'POST', '/v1/inventory/adjust', { sku: 'AMMO-FED-9MM-50', location_id: 2, qty_delta: -1 }),
    (s, k) =>
      ok(s, k, 'POST', '/v1/inventory/adjust', { sku: 'AMMO-FED-9MM-50', location_id: 2, qty_delta: -1 }),
  ],
  [
    'gift certificate (disable, then enable)',
    (s, k) => ok(s, k, 'POST', '/v1/gift-certificates/1/disable'),
    (s, k) => ok(s, k, 'POST', '/v1/gift-certificates/1/enable'),
  ],
  [
    'purchase order (edit the draft, then submit it)',
    (s, k) => ok(s, k, 'PATCH', '/v1/purchase-orders/1', { expected_on: '2026-10-09' }),
    (s, k) => ok(s, k, 'POST', '/v1/purchase-orders/1/submit'),
  ],
  [
    'product (two price changes)',
    (s, k) => ok(s, k, 'PATCH', '/v1/products/4', { price_cents: 1399 }),
    (s, k) => ok(s, k, 'PATCH', '/v1/products/4', { price_cents: 1499 }),
  ],
  [
    'coupon (two edits)',
    (s, k) => ok(s, k, 'PATCH', '/v1/coupons/1', { name: 'Spring 10' }),
    (s, k) => ok(s, k, 'PATCH', '/v1/coupons/1', { name: 'Spring ten' }),
  ],
  [
    'location (two edits)',
    (s, k) => ok(s, k, 'PATCH', '/v1/locations/2', { phone: '+12085550101' }),
    (s, k) => ok(s, k, 'PATCH', '/v1/locations/2', { phone: '+12085550102' }),
  ],
  [
    'reservation (booked, then checked in)',
    (s, k) =>
      ok(s, k, 'POST', '/v1/range/reservations', {
        resource_ids: [4],
        starts_at: at(2),
        ends_at: at(3),
        party_size: 2,
        customer_id: 1,
      }),
    async (s, k) => {
      const [booked] = await ok(s, k, 'GET', '/v1/range/reservations?source=api');
      return ok(s, k, 'POST', `/v1/range/reservations/${booked.id}/check-in`);
    },
  ],
  [
    'membership (cancel at period end, then cancel now)',
    (s, k) => ok(s, k, 'POST', '/v1/memberships/1/cancel', { at_period_end: true }),
    (s, k) => ok(s, k, 'POST', '/v1/memberships/1/cancel', { at_period_end: false }),
  ],
  [
    'order (created held, then voided)',
    (s, k) =>
      ok(s, k, 'POST', '/v1/orders', {
        location_id: 1,
        customer_id: 1,
        status: 'held',
        lines: [{ sku: 'AMMO-FED-9MM-50', qty: 1 }],
      }),
    (s, k) => {
      const latest = s.world.state.orders.orders.all().at(-1)!;
      return ok(s, k, 'POST', `/v1/orders/${latest.id}/void`);
    },
  ],
];

describe('updated_at on the frozen clock', () => {
  it.each(cases)('moves forward on each change: %s', async (_name, first, second) => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const before = sandbox.clock.nowMs();
    const one = await first(sandbox, key);
    const two = await second(sandbox, key);
    expect(Date.parse(one.updated_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(two.updated_at)).toBeGreaterThan(Date.parse(one.updated_at));
  });

  it("takes the clock's time again once the clock has moved past the record's last stamp", async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const adjust = () =>
      ok(sandbox, key, 'POST', '/v1/inventory/adjust', {
        sku: 'AMMO-FED-9MM-50',
        location_id: 2,
        qty_delta: -1,
      });
    expect((await adjust()).updated_at).toBe(sandbox.clock.iso());
    expect(Date.parse((await adjust()).updated_at)).toBe(sandbox.clock.nowMs() + 1);
    sandbox.clock.advance('1m');
    expect((await adjust()).updated_at).toBe(sandbox.clock.iso());
  });

  it('orders the inventory.changed events of one level by updated_at, so "skip older" can be applied', async () => {
    const { sandbox, key, events } = withFeed();
    for (const delta of [-1, -2, -3]) {
      await ok(sandbox, key, 'POST', '/v1/inventory/adjust', {
        sku: 'AMMO-FED-9MM-50',
        location_id: 2,
        qty_delta: delta,
      });
    }
    const stamps = (await events('inventory.changed')).map((event) =>
      Date.parse(event.data.object.updated_at),
    );
    expect(stamps).toHaveLength(3);
    expect(stamps[1]).toBeGreaterThan(stamps[0]!);
    expect(stamps[2]).toBeGreaterThan(stamps[1]!);
  });

  it('keeps register changes ordered too: a gun rented out and brought back in the same millisecond', () => {
    const sandbox = newSandbox();
    const rental = sandbox.world.state.range.rentals.find((row) => row.id === 1)!;
    sandbox.register.rentOut(1, { customerId: 1 });
    const out = Date.parse(rental.updated_at);
    sandbox.register.returnRental(1, { condition: 'Damaged: cracked grip' });
    expect(Date.parse(rental.updated_at)).toBeGreaterThan(out);
  });
});
