import { describe, expect, it } from 'vitest';
import { ConflictError, ShopClient } from '../../src/index.js';
import { at, newSandbox } from './helpers.js';

describe('the sandbox behind ShopClient', () => {
  it('serves the client through sandbox.fetch, retries included', async () => {
    const sandbox = newSandbox();
    const shop = new ShopClient({
      apiKey: sandbox.createKey(),
      baseUrl: sandbox.baseUrl,
      fetch: sandbox.fetch,
    });
    const booking = await shop.range.reservations.create({
      resource_ids: [4],
      starts_at: at(2),
      ends_at: at(3),
      party_size: 1,
      customer_id: 1,
    });
    expect(booking).toMatchObject({ status: 'booked', source: 'api' });
    sandbox.faults.next({ reset: true, when: 'after', method: 'POST' });
    const cancelled = await shop.range.reservations.cancel(booking.id, { reason: 'Weather' });
    expect(cancelled).toMatchObject({ status: 'cancelled', requires_manual_refund: true });
    await expect(shop.range.reservations.checkIn(booking.id)).rejects.toBeInstanceOf(ConflictError);
  });
});
