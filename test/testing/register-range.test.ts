// The register's range actions: closing a visit brings back the guns rented on it (reference section 1,
// rule 4), and a shop without the Range add-on has no range at its register (section 6: range events exist
// only for shops with the add-on).
import { describe, expect, it } from 'vitest';
import { SandboxUsageError } from '../../src/testing/index.js';
import { type CallResult, call, newSandbox } from './helpers.js';

function withFeed(options: Parameters<typeof newSandbox>[0] = {}) {
  const sandbox = newSandbox(options);
  sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
  const key = sandbox.createKey();
  const events = async (): Promise<CallResult['json'][]> =>
    (await call(sandbox, 'GET', '/v1/events?limit=200', { key })).json.data;
  return { sandbox, key, events };
}

/** A lane booking checked in through the API, the way a partner's visit starts. */
async function checkedInVisit(sandbox: ReturnType<typeof newSandbox>, key: string): Promise<number> {
  const booking = await call(sandbox, 'POST', '/v1/range/reservations', {
    key,
    body: {
      resource_ids: [1],
      starts_at: '2026-10-01T16:00:00Z',
      ends_at: '2026-10-01T17:00:00Z',
      party_size: 2,
      customer_id: 2,
    },
  });
  expect(booking.status).toBe(201);
  const id: number = booking.json.data.id;
  expect((await call(sandbox, 'POST', `/v1/range/reservations/${id}/check-in`, { key })).status).toBe(200);
  return id;
}

describe('register.closeVisit returns the guns rented on the visit', () => {
  it('checks each open checkout of the visit back in (Good by default), then completes the visit', async () => {
    const { sandbox, key, events } = withFeed();
    const visit = await checkedInVisit(sandbox, key);
    sandbox.register.rentOut(1, { customerId: 2, reservationId: visit });
    sandbox.register.rentOut(2, { customerId: 2, reservationId: visit });
    sandbox.register.rentOut(3, { customerId: 4 }); // a walk-in rental, not on this visit
    const seen = (await events()).length;

    sandbox.clock.advance('1h');
    const closed = sandbox.register.closeVisit(visit, { overtimeCents: 800 });

    expect(closed.status).toBe('completed');
    for (const rentalId of [1, 2]) {
      const rental = (await call(sandbox, 'GET', `/v1/range/rentals/${rentalId}`, { key })).json.data;
      expect(rental).toMatchObject({ status: 'available', checkout: null });
      expect(rental.recent_checkouts[0]).toMatchObject({
        reservation_id: visit,
        condition_in: 'Good',
        checked_in_at: sandbox.clock.iso(),
      });
    }
    expect((await call(sandbox, 'GET', '/v1/range/rentals/3', { key })).json.data.status).toBe('checked_out');
    const open = await call(sandbox, 'GET', `/v1/range/rental-checkouts?reservation_id=${visit}&open=true`, {
      key,
    });
    expect(open.json.data).toEqual([]);

    const fired = (await events()).slice(seen);
    expect(fired.map((event) => event.type)).toEqual([
      'range.rental.checked_in',
      'range.rental.checked_in',
      'sale.completed',
      'range.reservation.completed',
    ]);
    expect(fired.slice(0, 2).map((event) => event.data.object.id)).toEqual([1, 2]);
    expect(fired[0]!.data.object.last_checkout).toMatchObject({
      reservation_id: visit,
      condition_in: 'Good',
    });
    expect(fired[3]!.data.object).toMatchObject({ id: visit, status: 'completed' });
  });

  it('takes each gun back as the caller says: condition and rounds fired, Damaged into maintenance', async () => {
    const { sandbox, key, events } = withFeed();
    const visit = await checkedInVisit(sandbox, key);
    const before = sandbox.register.rentOut(1, { customerId: 2, reservationId: visit }).round_count;
    sandbox.register.rentOut(2, { customerId: 2, reservationId: visit });
    const seen = (await events()).length;

    sandbox.register.closeVisit(visit, {
      rentals: [
        { rentalId: 2, condition: 'Damaged: cracked grip', roundsFired: 40 },
        { rentalId: 1, roundsFired: 120 },
      ],
    });

    const first = (await call(sandbox, 'GET', '/v1/range/rentals/1', { key })).json.data;
    expect(first).toMatchObject({ status: 'available', round_count: before + 120 });
    const second = (await call(sandbox, 'GET', '/v1/range/rentals/2', { key })).json.data;
    expect(second).toMatchObject({
      status: 'maintenance',
      out_of_service_reason: 'Returned: Damaged: cracked grip',
    });
    const fired = (await events()).slice(seen);
    expect(fired.map((event) => `${event.type} ${event.data.object.id}`)).toEqual([
      'range.rental.checked_in 1',
      'range.rental.checked_in 2',
      'range.rental.out_of_service 2',
      `range.reservation.completed ${visit}`,
    ]);
    expect(fired[1]!.data.object.last_checkout).toMatchObject({
      condition_in: 'Damaged: cracked grip',
      rounds_fired: 40,
    });
  });

  it("returns the seeded party's rental rifle when that visit closes", async () => {
    const { sandbox, key } = withFeed();
    const visit = (await call(sandbox, 'GET', '/v1/range/reservations?status=checked_in', { key })).json
      .data[0];
    const out = await call(
      sandbox,
      'GET',
      `/v1/range/rental-checkouts?reservation_id=${visit.id}&open=true`,
      {
        key,
      },
    );
    expect(out.json.data).toHaveLength(1);
    sandbox.register.closeVisit(visit.id);
    const rental = (await call(sandbox, 'GET', `/v1/range/rentals/${out.json.data[0].rental_id}`, { key }))
      .json.data;
    expect(rental.status).toBe('available');
  });

  it('refuses, changing nothing, a rental that is not out on the visit or a bad condition', async () => {
    const { sandbox, key, events } = withFeed();
    const visit = await checkedInVisit(sandbox, key);
    sandbox.register.rentOut(1, { customerId: 2, reservationId: visit });
    sandbox.register.rentOut(3, { customerId: 4 });
    const seen = (await events()).length;

    for (const rentals of [
      [{ rentalId: 3 }],
      [{ rentalId: 99 }],
      [{ rentalId: 1, condition: 'Fine' }],
      [{ rentalId: 1, roundsFired: -5 }],
      [{ rentalId: 1 }, { rentalId: 1 }],
    ]) {
      expect(() => sandbox.register.closeVisit(visit, { rentals })).toThrow(SandboxUsageError);
    }
    expect((await events()).length).toBe(seen);
    expect((await call(sandbox, 'GET', '/v1/range/rentals/1', { key })).json.data.status).toBe('checked_out');
    expect((await call(sandbox, 'GET', `/v1/range/reservations/${visit}`, { key })).json.data.status).toBe(
      'checked_in',
    );
  });
});

describe('range register actions in a shop without the Range add-on', () => {
  it('refuse with SandboxUsageError and record no range event', async () => {
    const { sandbox, events } = withFeed({ rangeAddon: false });
    const visit = sandbox.register; // the seeded range records exist; the shop has no range to act on
    expect(() => visit.rentOut(1, { customerId: 1 })).toThrow(/Range add-on/);
    expect(() => visit.rentOut(1, { customerId: 1 })).toThrow(SandboxUsageError);
    expect(() => visit.returnRental(5)).toThrow(SandboxUsageError);
    expect(() => visit.takeOutOfService(1, 'Scheduled service')).toThrow(SandboxUsageError);
    expect(() => visit.returnToService(6)).toThrow(SandboxUsageError);
    expect(() => visit.closeVisit(1)).toThrow(SandboxUsageError);
    expect(await events()).toEqual([]);
  });

  it('work again once the add-on is turned on, and stop when it is turned off', () => {
    const sandbox = newSandbox({ rangeAddon: false });
    sandbox.setRangeAddon(true);
    expect(sandbox.register.rentOut(1, { customerId: 1 }).status).toBe('checked_out');
    sandbox.setRangeAddon(false);
    expect(() => sandbox.register.returnRental(1)).toThrow(SandboxUsageError);
  });

  it('leave the register actions that are not range ones alone', () => {
    const sandbox = newSandbox({ rangeAddon: false });
    const order = sandbox.register.sell({ customerId: 1, lines: [{ sku: 'AMMO-FED-9MM-50', qty: 1 }] });
    expect(order.status).toBe('completed');
  });
});
