import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { ConflictError } from '../../src/core/errors/index.js';
import { createSandbox } from '../../src/testing/index.js';
import type { SandboxServer } from '../../src/testing/server.js';

// The README's tour (book a lane, walk reservations, read a rental's history), run against the sandbox over
// real HTTP on 127.0.0.1, so the documented calls are known to work end to end.

const sandbox = createSandbox({ seed: 7, now: '2026-10-01T12:00:00Z' });
let server: SandboxServer;
let shop: ShopClient;

beforeAll(async () => {
  server = await sandbox.listen();
  shop = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url, logLevel: 'off' });
});
afterAll(() => server.close());

describe('the README tour against the sandbox', () => {
  const window = { starts_at: '2026-10-02T15:00:00Z', ends_at: '2026-10-02T16:00:00Z' };

  it('books a lane once, even when the call is repeated with the same key', async () => {
    const [lane] = await shop.range.availability.list({ ...window, party_size: 2 });
    expect(lane).toBeDefined();
    const params = {
      resource_ids: [lane!.resource.id],
      ...window,
      party_size: 2,
      customer: { email: 'dana@example.com', first_name: 'Dana', last_name: 'Reyes' },
      external_reference: 'web-1042',
    };

    const booking = await shop.range.reservations.create(params, { idempotencyKey: 'booking-web-1042' });
    const again = await shop.range.reservations
      .create(params, { idempotencyKey: 'booking-web-1042' })
      .withResponse();

    expect(booking).toMatchObject({ status: 'booked', source: 'api', party_size: 2 });
    expect(again.data.id).toBe(booking.id);
    expect(again.idempotentReplayed).toBe(true);
    const mine = await shop.range.reservations.list({ from: window.starts_at, status: 'booked' }).toArray();
    expect(mine.filter((r) => r.id === booking.id)).toHaveLength(1);
  });

  it('walks reservations page by page, checks one in and refuses a second check-in', async () => {
    const seen: number[] = [];
    for await (const reservation of shop.range.reservations.list({ limit: 2 })) seen.push(reservation.id);
    expect(seen.length).toBeGreaterThan(0);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    const booked = await shop.range.reservations.list({ status: 'booked' });
    const target = booked.data[0];
    expect(target).toBeDefined();
    const checkedIn = await shop.range.reservations.checkIn(target!.id);
    expect(checkedIn.status).toBe('checked_in');
    const error = await shop.range.reservations.checkIn(target!.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('INVALID_STATE');
  });

  it("reads a rental gun's custody history", async () => {
    const guns = await shop.range.rentals.list().toArray();
    const details = await Promise.all(guns.map((gun) => shop.range.rentals.retrieve(gun.id)));
    const used = details.find((gun) => gun.recent_checkouts.length > 0);
    expect(used).toBeDefined();
    const [latest] = used!.recent_checkouts;
    expect(latest).toMatchObject({ rental_id: used!.id, object: 'range_rental_checkout' });
    const history = await shop.range.rentalCheckouts.list({ rental_id: used!.id }).toArray();
    expect(history.map((c) => c.id)).toContain(latest!.id);
  });
});
