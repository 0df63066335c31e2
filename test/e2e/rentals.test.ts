// The rental-gun machine (reference section 3): guns go out and come back at the register, and the API
// shows each step (status, open checkout, custody history, round count, events).
import { describe, expect, it } from 'vitest';
import { BadRequestError, newerValue } from '../../src/index.js';
import { conformanceTest, failure, useE2E } from './support/harness.js';

const e2e = useE2E();
e2e.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });

async function availableGun(locationId = 1) {
  const guns = await e2e
    .client()
    .range.rentals.list({ status: 'available', location_id: locationId })
    .toArray();
  expect(guns.length).toBeGreaterThan(0);
  return guns[0]!;
}

/** A moment after everything so far: `updated_since` is inclusive, so earlier steps must be strictly older. */
function mark(): string {
  e2e.sandbox.clock.advance('1s');
  return e2e.sandbox.clock.now().toISOString();
}

async function rentalEvents(rentalId: number, since: string) {
  const events = await e2e.client().events.list({ updated_since: since }).toArray();
  return events.filter(
    (event) =>
      event.type.startsWith('range.rental.') && (event.data.object as { id?: number }).id === rentalId,
  );
}

describe('a rental gun through the register (reference section 3)', () => {
  it('goes out, comes back Good with its rounds counted, and is available again', async () => {
    const shop = e2e.client();
    const gun = await availableGun();
    const since = mark();

    e2e.sandbox.register.rentOut(gun.id, { customerId: 2 });
    const out = await shop.range.rentals.retrieve(gun.id);
    expect(out).toMatchObject({ status: 'checked_out', checkout: { customer_id: 2, checked_in_at: null } });
    const open = await shop.range.rentalCheckouts.list({ rental_id: gun.id, open: true }).toArray();
    expect(open.map((checkout) => checkout.id)).toEqual([out.checkout!.id]);

    e2e.sandbox.clock.advance('2h');
    e2e.sandbox.register.returnRental(gun.id, { condition: 'Good', roundsFired: 150 });
    const back = await shop.range.rentals.retrieve(gun.id);
    expect(back).toMatchObject({ status: 'available', checkout: null, round_count: gun.round_count + 150 });
    expect(back.recent_checkouts[0]).toMatchObject({
      id: out.checkout!.id,
      condition_in: 'Good',
      rounds_fired: 150,
    });
    expect(await shop.range.rentalCheckouts.list({ rental_id: gun.id, open: true }).toArray()).toEqual([]);

    const events = await rentalEvents(gun.id, since);
    expect(events.map((event) => event.type)).toEqual([
      'range.rental.checked_out',
      'range.rental.checked_in',
    ]);
    expect(events[1]!.data.object).toMatchObject({ last_checkout: { rounds_fired: 150 } });
  });

  it.each(['Damaged: cracked grip', 'Needs cleaning'])(
    'comes back "%s", goes out of service, and returns to service',
    async (condition) => {
      const shop = e2e.client();
      const gun = await availableGun();
      const since = mark();
      e2e.sandbox.register.rentOut(gun.id, { customerId: 4 });
      e2e.sandbox.register.returnRental(gun.id, { condition, roundsFired: 40 });

      const down = await shop.range.rentals.retrieve(gun.id);
      expect(down.status).toBe('maintenance');
      expect(down.out_of_service_reason).toContain(condition);
      const inMaintenance = await shop.range.rentals.list({ status: 'maintenance' }).toArray();
      expect(inMaintenance.map((rental) => rental.id)).toContain(gun.id);

      e2e.sandbox.clock.advance('1d');
      e2e.sandbox.register.returnToService(gun.id);
      const up = await shop.range.rentals.retrieve(gun.id);
      expect(up).toMatchObject({ status: 'available', out_of_service_reason: null });
      expect(up.last_serviced_on).toBe(e2e.sandbox.clock.now().toISOString().slice(0, 10));

      expect((await rentalEvents(gun.id, since)).map((event) => event.type)).toEqual([
        'range.rental.checked_out',
        'range.rental.checked_in',
        'range.rental.out_of_service',
        'range.rental.returned_to_service',
      ]);
    },
  );

  it('refuses a status filter outside the documented set with 400 VALIDATION_ERROR', async () => {
    const error = await failure(e2e.client().range.rentals.list({ status: newerValue('lost') }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { status: expect.any(Array) },
    });
  });
});

conformanceTest(e2e, 4);
