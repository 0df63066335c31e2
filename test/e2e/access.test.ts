// What a key may do and see (reference sections 1 and 5): permissions answer 403 INSUFFICIENT_SCOPE naming
// the one missing, and a key limited to locations sees only their records (404 for the rest, lists filtered).
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  type ShopClient,
} from '../../src/index.js';
import type { Permission } from '../../src/testing/index.js';
import { at, conformanceTest, failure, useE2E } from './support/harness.js';

const e2e = useE2E();
e2e.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });

describe('permissions (403 INSUFFICIENT_SCOPE with details.required)', () => {
  const cases: {
    what: string;
    permissions: Permission[];
    required: string;
    call: (shop: ShopClient) => Promise<unknown>;
  }[] = [
    {
      what: 'a range write with range:read',
      permissions: ['range:read'],
      required: 'range:write',
      call: (shop) => shop.range.reservations.checkIn(1),
    },
    {
      what: 'a range read without range',
      permissions: ['products:read'],
      required: 'range:read',
      call: (shop) => shop.range.resources.list(),
    },
    {
      what: 'a rental read without range',
      permissions: ['products:read'],
      required: 'range:read',
      call: (shop) => shop.range.rentals.retrieve(1),
    },
  ];
  it.each(cases)('refuses $what, naming $required', async ({ permissions, required, call }) => {
    const shop = e2e.client({ apiKey: e2e.key({ permissions }) });
    const error = await failure(call(shop));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', details: { required } });
  });

  it('lets a read-only key read what it may', async () => {
    const shop = e2e.client({ apiKey: e2e.key({ permissions: ['range:read'] }) });
    const page = await shop.range.reservations.list({ limit: 5 });
    expect(page.data).toHaveLength(5);
  });

  it('serves the event feed to any key, with only the event types the key can read', async () => {
    const booking = await e2e.client().range.reservations.create({
      resource_ids: [1],
      starts_at: at(5, 4),
      ends_at: at(6, 4),
      party_size: 1,
      customer_id: 1,
    });
    const full = await e2e.client().events.list().toArray();
    expect(full.map((event) => event.type)).toContain('range.reservation.booked');

    const noRange = e2e.client({ apiKey: e2e.key({ permissions: ['products:read'] }) });
    const events = await noRange.events.list().toArray();
    expect(events.filter((event) => event.type.startsWith('range.'))).toEqual([]);
    expect(events.some((event) => (event.data.object as { id?: number }).id === booking.id)).toBe(false);
  });
});

describe('location limits (404 for records elsewhere, lists filtered)', () => {
  const secondStoreOnly = () => e2e.client({ apiKey: e2e.key({ locations: [2] }) });

  it('lists only the reservations, resources, sessions, rentals and checkouts of its locations', async () => {
    const everywhere = e2e.client();
    const limited = secondStoreOnly();
    const lists = [
      (shop: typeof limited) => shop.range.reservations.list().toArray(),
      (shop: typeof limited) => shop.range.resources.list().toArray(),
      (shop: typeof limited) => shop.range.sessions.list().toArray(),
      (shop: typeof limited) => shop.range.rentals.list().toArray(),
      (shop: typeof limited) => shop.range.rentalCheckouts.list().toArray(),
    ];
    for (const list of lists) {
      const all = await list(everywhere);
      const mine = await list(limited);
      expect(new Set(all.map((row) => row.location_id))).toEqual(new Set([1, 2]));
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((row) => row.location_id === 2)).toBe(true);
      expect(mine.map((row) => row.id)).toEqual(
        all.filter((row) => row.location_id === 2).map((row) => row.id),
      );
    }
  });

  it('answers 404 NOT_FOUND for a reservation or rental at another location, and changes nothing', async () => {
    const everywhere = e2e.client();
    const limited = secondStoreOnly();
    const [elsewhere] = (await everywhere.range.reservations.list({ location_id: 1, status: 'booked' })).data;
    const [gun] = (await everywhere.range.rentals.list({ location_id: 1 })).data;

    for (const call of [
      () => limited.range.reservations.retrieve(elsewhere!.id),
      () => limited.range.reservations.checkIn(elsewhere!.id),
      () => limited.range.reservations.cancel(elsewhere!.id),
      () => limited.range.rentals.retrieve(gun!.id),
    ]) {
      const error = await failure(call());
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect((await everywhere.range.reservations.retrieve(elsewhere!.id)).status).toBe('booked');
  });

  it('refuses a booking of a lane at another location with 404, and books its own', async () => {
    const limited = secondStoreOnly();
    const window = { starts_at: at(5, 5), ends_at: at(6, 5), party_size: 1, customer_id: 1 };
    const error = await failure(limited.range.reservations.create({ ...window, resource_ids: [1] }));
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const [free] = await limited.range.availability.list({
      starts_at: window.starts_at,
      ends_at: window.ends_at,
    });
    expect(free!.resource.location_id).toBe(2);
    const booked = await limited.range.reservations.create({ ...window, resource_ids: [free!.resource.id] });
    expect(booked.location_id).toBe(2);
  });

  it('leaves events at other locations out of its feed', async () => {
    const events = await secondStoreOnly().events.list().toArray();
    const atFirst = (await e2e.client().events.list().toArray()).filter(
      (event) => (event.data.object as { location_id?: number }).location_id === 1,
    );
    expect(atFirst.length).toBeGreaterThan(0);
    expect(
      events.filter((event) => (event.data.object as { location_id?: number }).location_id === 1),
    ).toEqual([]);
  });
});

describe('a rolled key (reference section 5, rule 4)', () => {
  // A grace period of 0 hours ends at once, so the file's shared clock does not move.
  it('works under its new secret and answers the old one 401 INVALID_API_KEY once the grace is over', async () => {
    const old = e2e.key({ permissions: ['range:read'] });
    const next = e2e.sandbox.rollKey(old, { graceHours: 0 });
    const page = await e2e.client({ apiKey: next }).range.resources.list({ limit: 1 });
    expect(page.data).toHaveLength(1);
    const error = await failure(e2e.client({ apiKey: old, maxRetries: 0 }).range.resources.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });
});

conformanceTest(e2e, 8);
