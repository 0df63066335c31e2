import { describe, expect, it } from 'vitest';
import { MembershipDetailSchema, MembershipSchema } from '../../src/generated/schemas.js';
import { call, listAll, newSandbox } from './helpers.js';
import { getData, withFeed } from './shop-helpers.js';

const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

describe('sandbox membership plans and reads', () => {
  it('lists plans with a status filter (one archived; month x1 and month x3)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['memberships:read'] });
    const plans = await listAll(sandbox, '/v1/membership-plans', key);
    expect(plans.map((plan) => [plan.name, plan.status, plan.billing_interval, plan.interval_count])).toEqual(
      [
        ['Range Monthly', 'active', 'month', 1],
        ['Family Quarterly', 'active', 'month', 3],
        ['Rifle League', 'active', 'month', 1],
        ['Founders Club', 'archived', 'month', 1],
      ],
    );
    expect(ids(await listAll(sandbox, '/v1/membership-plans?status=archived', key))).toEqual([4]);
  });

  it('filters memberships by customer (primary or family member), plan, status and updated_since', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['memberships:read'] });
    const list = async (query: string) => ids(await listAll(sandbox, `/v1/memberships?${query}`, key));
    expect(await list('customer_id=3')).toEqual([2]);
    expect(await list('customer_id=4')).toEqual([2]);
    expect(await list('plan_id=1')).toEqual([1, 3, 5, 7, 8]);
    expect(await list('status=past_due')).toEqual([3]);
    expect(await list('status=frozen')).toEqual([7]);
    expect(await list('updated_since=2026-09-30T00:00:00Z')).toEqual([3, 4]);
    const items = await listAll(sandbox, '/v1/memberships', key);
    expect(new Set(items.map((item) => item.status))).toEqual(
      new Set(['pending', 'active', 'past_due', 'frozen', 'expired', 'cancelled']),
    );
    for (const item of items) {
      expect(MembershipSchema.safeParse(item).success).toBe(true);
      expect(item).not.toHaveProperty('charges');
    }
  });

  it('reads one membership with its charges, newest first, at most the last 50', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const detail = await getData(sandbox, '/v1/memberships/1', key);
    expect(MembershipDetailSchema.safeParse(detail).success).toBe(true);
    expect(
      detail.charges.map((charge: { kind: string; status: string }) => [charge.kind, charge.status]),
    ).toEqual([
      ['dues', 'paid'],
      ['dues', 'paid'],
      ['signup', 'paid'],
    ]);
    expect(detail.charges[2].amount_cents).toBe(3999 + 2500);
    sandbox.clock.advance('1500d');
    const later = await getData(sandbox, '/v1/memberships/1', key);
    expect(later.charges).toHaveLength(50);
    expect(later.charges[0].period_start > later.charges[49].period_start).toBe(true);
    expect(later.charges.some((charge: { kind: string }) => charge.kind === 'signup')).toBe(false);
  });

  it('answers 404 for a membership that does not exist', async () => {
    const sandbox = newSandbox();
    const res = await call(sandbox, 'GET', '/v1/memberships/999', { key: sandbox.createKey() });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });
});

describe('sandbox membership sign-up', () => {
  const body = { customer_id: 5, plan_id: 1, billing_method: 'counter' };

  it('paid: true starts active with the signup charge paid and no order; membership.created fires', async () => {
    const { sandbox, key, events } = withFeed();
    const orders = sandbox.world.state.orders.orders.size;
    const res = await call(sandbox, 'POST', '/v1/memberships', { key, body: { ...body, paid: true } });
    expect(res.status).toBe(201);
    expect(MembershipDetailSchema.safeParse(res.json.data).success).toBe(true);
    expect(res.json.data).toMatchObject({
      status: 'active',
      customer_id: 5,
      location_id: 1,
      source: 'api',
      started_on: '2026-10-01',
      current_period_end: '2026-10-31',
      next_bill_on: '2026-11-01',
      commitment_ends_on: null,
      members: [{ customer_id: 5, role: 'primary' }],
    });
    expect(res.json.data.charges).toEqual([
      expect.objectContaining({
        kind: 'signup',
        status: 'paid',
        amount_cents: 6499,
        order_id: null,
        pay_url: null,
      }),
    ]);
    expect(sandbox.world.state.orders.orders.size).toBe(orders);
    const fired = await events();
    expect(fired.map((event) => event.type)).toEqual(['membership.created']);
    expect(fired[0].data.object).not.toHaveProperty('charges');
  });

  it('paid absent: pending with the signup charge due and a pay link', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const res = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { customer_id: 5, plan_id: 3, billing_method: 'link' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data.status).toBe('pending');
    expect(res.json.data.commitment_ends_on).toBe('2027-09-30');
    expect(res.json.data.charges[0]).toMatchObject({ status: 'due', amount_cents: 2999 + 5000 });
    expect(res.json.data.charges[0].pay_url).toMatch(/^https:\/\//);
    expect(sandbox.sentEmails().at(-1)).toMatchObject({
      kind: 'membership_pay_link',
      to: expect.stringMatching(/@/),
    });
  });

  it('refuses link billing without card processing (422 CARD_PROCESSING_OFF); counter still works', async () => {
    const sandbox = newSandbox({ cardProcessing: false });
    const key = sandbox.createKey();
    const link = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { ...body, billing_method: 'link' },
    });
    expect(link.status).toBe(422);
    expect(link.json.error.code).toBe('CARD_PROCESSING_OFF');
    const counter = await call(sandbox, 'POST', '/v1/memberships', { key, body });
    expect(counter.status).toBe(201);
    expect(counter.json.data.charges[0].pay_url).toBeNull();
  });

  it('refuses when the shop has memberships off (422 MEMBERSHIPS_OFF)', async () => {
    const sandbox = newSandbox({ memberships: false });
    const key = sandbox.createKey();
    expect(await listAll(sandbox, '/v1/memberships', key)).toEqual([]);
    const res = await call(sandbox, 'POST', '/v1/memberships', { key, body });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('MEMBERSHIPS_OFF');
  });

  it('refuses an archived plan (422 PLAN_ARCHIVED) and a second live membership on a plan (409 ALREADY_MEMBER)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const archived = await call(sandbox, 'POST', '/v1/memberships', { key, body: { ...body, plan_id: 4 } });
    expect([archived.status, archived.json.error.code]).toEqual([422, 'PLAN_ARCHIVED']);
    const primary = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { ...body, customer_id: 1 },
    });
    expect([primary.status, primary.json.error.code]).toEqual([409, 'ALREADY_MEMBER']);
    expect(primary.json.error.details).toEqual({ membership_id: 1 });
    const family = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { ...body, customer_id: 4, plan_id: 2 },
    });
    expect(family.json.error.code).toBe('ALREADY_MEMBER');
    // Customer 9's membership on plan 1 has expired: signing up again is allowed.
    const lapsed = await call(sandbox, 'POST', '/v1/memberships', { key, body: { ...body, customer_id: 9 } });
    expect(lapsed.status).toBe(201);
  });

  it('names every bad field at once (400 VALIDATION_ERROR)', async () => {
    const sandbox = newSandbox();
    const res = await call(sandbox, 'POST', '/v1/memberships', {
      key: sandbox.createKey(),
      body: { customer_id: 999, plan_id: 99, billing_method: 'card' },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.details).sort()).toEqual(['billing_method', 'customer_id', 'plan_id']);
  });

  it('returns the same membership for a repeated external_reference, without a second event', async () => {
    const { sandbox, key, events } = withFeed();
    const first = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { ...body, external_reference: 'crm-77' },
    });
    const again = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { ...body, plan_id: 3, external_reference: 'crm-77' },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.json.data.id).toBe(first.json.data.id);
    expect((await events('membership.created')).length).toBe(1);
  });

  it('homes the member at a location-limited key location, and refuses one outside it with 404', async () => {
    const sandbox = newSandbox();
    const north = sandbox.createKey({ permissions: ['memberships:write'], locations: [2] });
    const homed = await call(sandbox, 'POST', '/v1/memberships', { key: north, body });
    expect(homed.json.data.location_id).toBe(2);
    const outside = await call(sandbox, 'POST', '/v1/memberships', {
      key: north,
      body: { ...body, customer_id: 6, location_id: 1 },
    });
    expect([outside.status, outside.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('sandbox membership cancel and guest passes', () => {
  it('at_period_end false ends now and voids what is owed (membership.updated change cancelled)', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'POST', '/v1/memberships/3/cancel', {
      key,
      body: { reason: 'Card keeps failing', at_period_end: false },
    });
    expect(res.status).toBe(200);
    expect(MembershipSchema.safeParse(res.json.data).success).toBe(true);
    expect(res.json.data).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Card keeps failing',
      cancelled_at: sandbox.clock.iso(),
      next_bill_on: null,
    });
    const detail = await getData(sandbox, '/v1/memberships/3', key);
    expect(detail.charges[0]).toMatchObject({ status: 'void', pay_url: null });
    const [event] = await events('membership.updated');
    expect(event.data.object).toMatchObject({ id: 3, status: 'cancelled', change: 'cancelled' });
    const again = await call(sandbox, 'POST', '/v1/memberships/3/cancel', {
      key,
      body: { at_period_end: false },
    });
    expect([again.status, again.json.error.code]).toEqual([409, 'INVALID_STATE']);
  });

  it('at_period_end absent sets cancel_at_period_end; the clock cancels it when the paid period ends', async () => {
    const { sandbox, key, events } = withFeed();
    const res = await call(sandbox, 'POST', '/v1/memberships/1/cancel', { key, body: { reason: 'Moving' } });
    expect(res.json.data).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_reason: 'Moving',
    });
    sandbox.clock.set('2026-10-03T23:59:00Z');
    expect((await getData(sandbox, '/v1/memberships/1', key)).status).toBe('active');
    sandbox.clock.advance('1m');
    const ended = await getData(sandbox, '/v1/memberships/1', key);
    expect(ended).toMatchObject({
      status: 'cancelled',
      next_bill_on: null,
      cancelled_at: '2026-10-04T00:00:00.000Z',
    });
    expect(ended.charges).toHaveLength(3);
    expect((await events('membership.updated')).map((event) => event.data.object.change)).toEqual([
      'cancel_scheduled',
      'cancelled',
    ]);
  });

  it('runs to the end of the minimum term when that is later than the paid period (dues continue)', async () => {
    const { sandbox, key, events } = withFeed();
    const before = await getData(sandbox, '/v1/memberships/9', key);
    expect(before).toMatchObject({ current_period_end: '2026-10-12', commitment_ends_on: '2027-07-12' });
    await call(sandbox, 'POST', '/v1/memberships/9/cancel', { key, body: {} });
    sandbox.clock.set('2026-10-13T00:00:00Z');
    const renewed = await getData(sandbox, '/v1/memberships/9', key);
    expect(renewed).toMatchObject({
      status: 'active',
      current_period_start: '2026-10-13',
      cancel_at_period_end: true,
    });
    expect(renewed.charges[0]).toMatchObject({ kind: 'dues', status: 'due', due_on: '2026-10-13' });
    for (let month = 0; month < 9; month++) {
      const date = new Date(Date.UTC(2026, 9 + month, 13, 12));
      sandbox.clock.set(date);
      sandbox.register.payMembership(9);
    }
    sandbox.clock.set('2027-07-12T23:00:00Z');
    expect((await getData(sandbox, '/v1/memberships/9', key)).status).toBe('active');
    sandbox.clock.set('2027-07-13T00:00:00Z');
    expect((await getData(sandbox, '/v1/memberships/9', key)).status).toBe('cancelled');
    const changes = (await events('membership.updated')).filter((event) => event.data.object.id === 9);
    expect(changes.at(-1).data.object.change).toBe('cancelled');
    const charges = (await getData(sandbox, '/v1/memberships/9', key)).charges;
    const dues = charges.filter((charge: { period_start: string }) => charge.period_start >= '2026-10-13');
    expect(dues).toHaveLength(9);
    expect(dues.every((charge: { status: string }) => charge.status === 'paid')).toBe(true);
  });

  it('lets a location-limited key cancel only memberships homed at its locations (others 404); reads work everywhere', async () => {
    const sandbox = newSandbox();
    const main = sandbox.createKey({ permissions: ['memberships:write'], locations: [1] });
    expect((await call(sandbox, 'GET', '/v1/memberships/9', { key: main })).status).toBe(200);
    const cancel = await call(sandbox, 'POST', '/v1/memberships/9/cancel', { key: main, body: {} });
    expect([cancel.status, cancel.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const pass = await call(sandbox, 'POST', '/v1/memberships/9/guest-pass', {
      key: main,
      body: { note: 'Sam' },
    });
    expect(pass.status).toBe(200);
  });

  it('uses guest passes until none are left (422 NO_GUEST_PASSES); the allowance resets on renewal', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const left = (await getData(sandbox, '/v1/memberships/1', key)).guest_passes_left;
    for (let used = 1; used <= left; used++) {
      const res = await call(sandbox, 'POST', '/v1/memberships/1/guest-pass', {
        key,
        body: { note: `guest ${used}` },
      });
      expect(res.json.data).toMatchObject({ object: 'membership', id: 1, guest_passes_left: left - used });
    }
    const none = await call(sandbox, 'POST', '/v1/memberships/1/guest-pass', { key });
    expect([none.status, none.json.error.code]).toEqual([422, 'NO_GUEST_PASSES']);
    const family = await call(sandbox, 'POST', '/v1/memberships/10/guest-pass', { key });
    expect(family.json.error.code).toBe('NO_GUEST_PASSES');
    sandbox.clock.set('2026-10-04T00:00:00Z');
    expect((await getData(sandbox, '/v1/memberships/1', key)).guest_passes_left).toBe(2);
  });

  it('refuses a guest pass while perks are off (pending), 409 INVALID_STATE', async () => {
    const sandbox = newSandbox();
    const res = await call(sandbox, 'POST', '/v1/memberships/4/guest-pass', { key: sandbox.createKey() });
    expect([res.status, res.json.error.code]).toEqual([409, 'INVALID_STATE']);
  });
});
