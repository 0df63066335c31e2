import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/core/errors/index.js';
import { signPayload } from '../../src/webhooks/sign.js';
import { verifyWebhook } from '../../src/webhooks/verify.js';
import { samples } from '../generated/samples.js';
import { client, mockApi, ok } from './helpers.js';

const api = mockApi();

const reservation = samples.RangeReservation as { id: number };

describe('list methods', () => {
  it('walk every page with for await, keeping the filters and passing the cursor back', async () => {
    api.respond(
      () => ok([{ ...reservation, id: 1 }], { meta: { limit: 1, has_more: true, next_cursor: 'c+2/=' } }),
      () => ok([{ ...reservation, id: 2 }], { meta: { limit: 1, has_more: false, next_cursor: null } }),
    );
    const ids: number[] = [];
    for await (const r of client().range.reservations.list({ status: 'booked', limit: 1 })) ids.push(r.id);

    expect(ids).toEqual([1, 2]);
    expect(api.requests.map((request) => request.query)).toEqual([
      { status: 'booked', limit: '1' },
      { status: 'booked', limit: '1', cursor: 'c+2/=' },
    ]);
  });

  it('collect with a bound through toArray({ max })', async () => {
    api.respond(() =>
      ok([samples.RangeRental, samples.RangeRental], { meta: { has_more: true, next_cursor: 'n' } }),
    );
    const guns = await client().range.rentals.list().toArray({ max: 2 });
    expect(guns).toHaveLength(2);
    expect(api.requests).toHaveLength(1);
  });
});

describe('a DELETE answered without a body', () => {
  it('resolves coupons.delete on a 204 to { id, deleted: true } from the path id', async () => {
    api.respond(() => new Response(null, { status: 204 }));
    expect(await client().coupons.delete(15)).toEqual({ id: 15, deleted: true });
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'DELETE /v1/coupons/15',
    ]);
  });

  it('resolves an empty 200 the same way, and still reads a body when there is one', async () => {
    api.respond(
      () => new Response('', { status: 200 }),
      () => ok({ object: 'coupon', id: 15, deleted: true }),
    );
    expect(await client().coupons.delete(15)).toEqual({ id: 15, deleted: true });
    expect(await client().coupons.delete(15)).toEqual({ object: 'coupon', id: 15, deleted: true });
  });

  it('still refuses an empty body on a method that promises a record', async () => {
    api.respond(() => new Response(null, { status: 204 }));
    await expect(client().coupons.update(15, { active: false })).rejects.toMatchObject({
      name: 'InvalidResponseError',
    });
  });
});

describe('single-record results', () => {
  it('a rental read carries its recent checkouts', async () => {
    api.respond(() => ok(samples.RangeRentalDetail));
    const gun = await client().range.rentals.retrieve(77);
    expect(gun.recent_checkouts.length).toBeGreaterThan(0);
    expect(gun.recent_checkouts[0]).toMatchObject({ rental_id: 77, object: 'range_rental_checkout' });
  });

  it('a membership read carries its charges', async () => {
    api.respond(() => ok(samples.MembershipDetail));
    const membership = await client().memberships.retrieve(410);
    expect(membership.charges.length).toBeGreaterThan(0);
    expect(membership.charges[0]?.object).toBe('membership_charge');
  });

  it('a reservation cancel carries requires_manual_refund with the reservation', async () => {
    api.respond(() => ok({ ...samples.RangeReservation, status: 'cancelled', requires_manual_refund: true }));
    const result = await client().range.reservations.cancel(5001);
    expect(result.requires_manual_refund).toBe(true);
    expect(result.status).toBe('cancelled');
    expect((result as unknown as Record<string, unknown>).lines).toEqual(
      (samples.RangeReservation as { lines: unknown }).lines,
    );
    expect(api.requests[0]?.body).toBeUndefined();
  });

  it('keeps unknown fields and unknown enum values (forward compatibility)', async () => {
    api.respond(() => ok({ ...samples.RangeReservation, status: 'waitlisted', loyalty_points: 12 }));
    const result = await client().range.reservations.retrieve(5001);
    expect(result.status).toBe('waitlisted');
    expect((result as unknown as Record<string, unknown>).loyalty_points).toBe(12);
  });

  it('refuses a record that breaks its schema with ResponseValidationError naming the path', async () => {
    api.respond(() => ok({ ...samples.RangeReservation, party_size: 'two' }));
    const error = await client()
      .range.reservations.retrieve(5001)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain('party_size');
  });
});

describe('resource groups', () => {
  it('are built once, on first use', () => {
    const shop = client();
    expect(shop.range).toBe(shop.range);
    expect(shop.range.reservations).toBe(shop.range.reservations);
    expect(shop.customers.account.payments).toBe(shop.customers.account.payments);
    expect(client().range).not.toBe(shop.range);
  });

  it('of a derived client are its own, calling through its transport; the parent keeps its groups', async () => {
    api.respond(() => ok(reservation));
    const shop = client();
    const range = shop.range;
    const derived = shop.withOptions({ headers: { 'x-tenant': 'north' } });
    expect(derived.range).not.toBe(range);
    expect(derived.range).toBe(derived.range);
    expect(shop.range).toBe(range);
    await derived.range.reservations.retrieve(reservation.id);
    await shop.range.reservations.retrieve(reservation.id);
    expect(api.requests.map((request) => request.headers.get('x-tenant'))).toEqual(['north', null]);
  });

  it('shop.webhooks.verify is verifyWebhook itself', async () => {
    const shop = client();
    expect(shop.webhooks.verify).toBe(verifyWebhook);
    const body = JSON.stringify(samples.Event);
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await signPayload({ body, secret: 'whsec_test_secret', timestamp });
    const event = await shop.webhooks.verify({
      body,
      headers: { 'service-signature': signature },
      secret: 'whsec_test_secret',
    });
    expect(event.id).toBe((samples.Event as { id: string }).id);
  });
});
