import { describe, expect, it } from 'vitest';
import { at, call, listAll, newSandbox } from './helpers.js';

const lane = (overrides: Record<string, unknown> = {}) => ({
  resource_ids: [4],
  starts_at: at(2),
  ends_at: at(3),
  party_size: 2,
  customer_id: 1,
  ...overrides,
});

describe('sandbox range availability', () => {
  it('lists active lanes free for the whole window, priced for the party, with meta {count}', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const res = await call(
      sandbox,
      'GET',
      `/v1/range/availability?starts_at=${at(2)}&ends_at=${at(3)}&party_size=2`,
      {
        key,
      },
    );
    expect(res.status).toBe(200);
    const ids = res.json.data.map((row: { resource: { id: number } }) => row.resource.id);
    // Lane 3 is booked then, 9 is out of service on the floor, 10 is not active.
    expect(ids).toEqual([1, 2, 4, 5, 6, 7, 8]);
    expect(res.json.meta).toEqual({ count: 7 });
    expect(res.json.data[0]).toEqual({
      object: 'range_availability',
      resource: expect.objectContaining({ object: 'range_resource', id: 1, type: 'lane' }),
      price_cents: 6000,
      starts_at: at(2),
      ends_at: at(3),
      party_size: 2,
    });
  });

  it('filters by lane_type (a comma list), type and location, and drops lanes too small for the party', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const window = `starts_at=${at(2)}&ends_at=${at(3)}`;
    const ids = async (query: string) =>
      (await call(sandbox, 'GET', `/v1/range/availability?${window}&${query}`, { key })).json.data.map(
        (row: { resource: { id: number } }) => row.resource.id,
      );
    expect(await ids('lane_type=rifle')).toEqual([1, 2, 4]);
    expect(await ids('lane_type=rifle,pistol&location_id=2')).toEqual([14, 15, 16, 17, 18, 19]);
    expect(await ids('type=bay')).toEqual([11]);
    expect(await ids('party_size=3')).toEqual([]);
    expect(await ids('type=bay&party_size=6')).toEqual([11]);
  });

  it('requires starts_at and ends_at as ISO-8601 (400 VALIDATION_ERROR per field)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const res = await call(sandbox, 'GET', '/v1/range/availability?ends_at=tomorrow', { key });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.details).sort()).toEqual(['ends_at', 'starts_at']);
  });

  it('reflects a booking: the lane is gone from availability for an overlapping window', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    await call(sandbox, 'POST', '/v1/range/reservations', { key, body: lane() });
    const res = await call(sandbox, 'GET', `/v1/range/availability?starts_at=${at(2.5)}&ends_at=${at(4)}`, {
      key,
    });
    expect(res.json.data.map((row: { resource: { id: number } }) => row.resource.id)).not.toContain(4);
  });
});

describe('sandbox lane bookings', () => {
  it('books a lane: 201, booked, source api, paid, confirmation email and range.reservation.booked', async () => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['range.reservation.booked'] });
    const key = sandbox.createKey();
    const res = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: lane({ notes: 'lefty' }),
    });
    expect(res.status).toBe(201);
    const reservation = res.json.data;
    expect(reservation).toMatchObject({
      object: 'range_reservation',
      status: 'booked',
      source: 'api',
      location_id: 1,
      class_session_id: null,
      party_size: 2,
      starts_at: at(2),
      ends_at: at(3),
      payment_status: 'paid',
      paid_cents: 6000,
      refunded_cents: 0,
      customer_ids: [1],
      confirmed_at: sandbox.clock.iso(),
      lines: [
        {
          kind: 'lane_time',
          resource_id: 4,
          product_id: null,
          quantity: 1,
          unit_cents: 6000,
          total_cents: 6000,
        },
      ],
    });
    expect(reservation.contact.email).toMatch(/@example\.com$/);
    expect(sandbox.sentEmails().at(-1)).toMatchObject({
      kind: 'reservation_confirmation',
      reservation_id: reservation.id,
    });
    const events = await call(sandbox, 'GET', '/v1/events', { key });
    expect(events.json.data.map((event: { type: string }) => event.type)).toEqual([
      'range.reservation.booked',
    ]);
    expect(events.json.data[0].data.object.id).toBe(reservation.id);
  });

  it('books unpaid with paid false and records amount_cents when paid', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const unpaid = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: lane({ paid: false }),
    });
    expect(unpaid.json.data).toMatchObject({ payment_status: 'unpaid', paid_cents: 0 });
    const discounted = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: lane({ resource_ids: [5], amount_cents: 4500 }),
    });
    expect(discounted.json.data).toMatchObject({ payment_status: 'paid', paid_cents: 4500 });
  });

  it('matches a customer by email or creates one (first and last name required)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const matched = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: lane({ customer_id: undefined, customer: { email: 'NEW.person@example.com' } }),
    });
    expect(matched.json.error.details).toEqual({
      'customer.first_name': ['is required for a new customer'],
      'customer.last_name': ['is required for a new customer'],
    });
    const created = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: lane({
        customer_id: undefined,
        customer: { email: 'new.person@example.com', first_name: 'New', last_name: 'Person' },
      }),
    });
    expect(created.status).toBe(201);
    expect(created.json.data.contact).toEqual({
      name: 'New Person',
      email: 'new.person@example.com',
      phone: null,
    });
    const again = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: lane({
        resource_ids: [5],
        customer_id: undefined,
        customer: { email: 'NEW.PERSON@example.com' },
      }),
    });
    expect(again.json.data.customer_ids).toEqual(created.json.data.customer_ids);
  });

  it.each([
    ['the lane is taken for that time', { resource_ids: [3] }, 409, 'RESOURCE_UNAVAILABLE'],
    ['the lane is out of service', { resource_ids: [9] }, 409, 'RESOURCE_UNAVAILABLE'],
    ['the lane is not active', { resource_ids: [10] }, 422, 'INVALID_RESOURCE'],
    ['the party is over capacity', { party_size: 3 }, 422, 'CONSTRAINT_VIOLATION'],
    ['the resource is a classroom', { resource_ids: [13] }, 422, 'CONSTRAINT_VIOLATION'],
    ['the window is over four hours', { ends_at: at(7) }, 422, 'CONSTRAINT_VIOLATION'],
    ['the lane is at another location', { resource_ids: [14] }, 422, 'CONSTRAINT_VIOLATION'],
    ['the lane does not exist', { resource_ids: [999] }, 404, 'NOT_FOUND'],
    ['the customer does not exist', { customer_id: 999 }, 400, 'VALIDATION_ERROR'],
    ['the window ends before it starts', { ends_at: at(1) }, 400, 'VALIDATION_ERROR'],
    ['the window is in the past', { starts_at: at(-3), ends_at: at(-2) }, 400, 'VALIDATION_ERROR'],
    [
      'neither resource_ids nor class_session_id is sent',
      { resource_ids: undefined },
      400,
      'VALIDATION_ERROR',
    ],
  ])('refuses a lane booking when %s', async (_case, overrides, status, code) => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const before = sandbox.sentEmails().length;
    const res = await call(sandbox, 'POST', '/v1/range/reservations', { key, body: lane(overrides) });
    expect([res.status, res.json.error.code]).toEqual([status, code]);
    expect(sandbox.sentEmails()).toHaveLength(before);
  });
});

describe('sandbox class-session bookings', () => {
  it('books seats at the session time and price and lowers seats_left', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const session = (await call(sandbox, 'GET', '/v1/range/sessions?class_id=1&limit=1', { key })).json
      .data[0];
    const res = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: { class_session_id: session.id, party_size: 2, customer_id: 3 },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      class_session_id: session.id,
      starts_at: session.starts_at,
      ends_at: session.ends_at,
      paid_cents: session.price_cents * 2,
      lines: [{ kind: 'resource', product_id: 9001, quantity: 2, unit_cents: session.price_cents }],
    });
    const after = (await call(sandbox, 'GET', '/v1/range/sessions?class_id=1&limit=1', { key })).json.data[0];
    expect([after.seats_booked, after.seats_left]).toEqual([
      session.seats_booked + 2,
      session.seats_left - 2,
    ]);
  });

  it('refuses a full session, a session not open, a minor under min_age, an oversized party, an unknown session', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const sessions = await listAll(sandbox, '/v1/range/sessions?limit=200', key);
    const full = sessions.find((session) => session.seats_left === 0);
    const closed = sessions.find((session) => session.status !== 'scheduled');
    const intro = sessions.find((session) => session.class_id === 1);
    const book = (body: Record<string, unknown>) =>
      call(sandbox, 'POST', '/v1/range/reservations', { key, body });
    const codes = async (body: Record<string, unknown>) => {
      const res = await book(body);
      return [res.status, res.json.error?.code];
    };
    expect(await codes({ class_session_id: full.id, party_size: 1, customer_id: 1 })).toEqual([
      409,
      'SESSION_FULL',
    ]);
    expect(await codes({ class_session_id: closed.id, party_size: 1, customer_id: 1 })).toEqual([
      422,
      'INVALID_SESSION',
    ]);
    expect(await codes({ class_session_id: intro.id, party_size: 1, customer_id: 14 })).toEqual([
      422,
      'CONSTRAINT_VIOLATION',
    ]);
    expect(await codes({ class_session_id: intro.id, party_size: 40, customer_id: 1 })).toEqual([
      422,
      'CONSTRAINT_VIOLATION',
    ]);
    expect(await codes({ class_session_id: 9999, party_size: 1, customer_id: 1 })).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(
      await codes({ class_session_id: intro.id, party_size: 1, customer_id: 1, notes: 'lane only' }),
    ).toEqual([400, 'VALIDATION_ERROR']);
    sandbox.clock.set(intro.starts_at);
    expect(await codes({ class_session_id: intro.id, party_size: 1, customer_id: 1 })).toEqual([
      422,
      'INVALID_SESSION',
    ]);
  });

  it('lists sessions from now through 30 days by default, and by from/to and class_id', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const all = await listAll(sandbox, '/v1/range/sessions?limit=200', key);
    const now = sandbox.clock.nowMs();
    expect(all.length).toBeGreaterThan(10);
    for (const session of all) {
      expect(Date.parse(session.starts_at)).toBeGreaterThanOrEqual(now);
      expect(Date.parse(session.starts_at)).toBeLessThanOrEqual(now + 30 * 86_400_000);
    }
    const week = await listAll(sandbox, `/v1/range/sessions?from=${at(0)}&to=${at(0, 7)}&class_id=1`, key);
    expect(week.map((session) => session.class_id)).toEqual([1, 1]);
  });
});
