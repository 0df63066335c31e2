import { describe, expect, it } from 'vitest';
import { call, listAll, newSandbox } from './helpers.js';

function closeVisitWithOvertime(sandbox: ReturnType<typeof newSandbox>) {
  const visit = sandbox.world.state.range.reservations.find((row) => row.status === 'checked_in')!;
  return sandbox.register.closeVisit(visit.id, { overtimeCents: 500 });
}

describe('sandbox event feed (GET /v1/events)', () => {
  it('records only types some enabled endpoint subscribes to', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    sandbox.register.rentOut(1, { customerId: 1 });
    expect((await call(sandbox, 'GET', '/v1/events', { key })).json.data).toEqual([]);
    const { id } = sandbox.webhooks.addEndpoint({
      url: 'https://hooks.sandbox.invalid/a',
      types: ['range.rental.checked_in'],
    });
    sandbox.register.returnRental(1);
    sandbox.register.rentOut(1, { customerId: 1 });
    sandbox.webhooks.setEnabled(id, false);
    sandbox.register.returnRental(1);
    const feed = await call(sandbox, 'GET', '/v1/events', { key });
    expect(feed.json.data.map((event: { type: string }) => event.type)).toEqual(['range.rental.checked_in']);
    expect(feed.json.data[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      api_version: '2026-09-24',
      created_at: sandbox.clock.iso(),
      livemode: false,
    });
  });

  it('shows only events the key may read, at its locations, with type and updated_since filters', async () => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/a', types: ['*'] });
    sandbox.register.rentOut(1, { customerId: 1 });
    sandbox.clock.advance('10m');
    const mark = sandbox.clock.iso();
    sandbox.register.rentOut(8, { customerId: 2 });
    closeVisitWithOvertime(sandbox);
    const types = async (key: string, query = '') =>
      (await listAll(sandbox, `/v1/events?limit=2${query}`, key)).map((event) => event.type);
    const everything = sandbox.createKey();
    // Closing the seeded visit also takes back the rifle rented on it (rental 5, at location 1).
    expect(await types(everything)).toEqual([
      'range.rental.checked_out',
      'range.rental.checked_out',
      'range.rental.checked_in',
      'sale.completed',
      'range.reservation.completed',
    ]);
    expect(await types(sandbox.createKey({ permissions: ['orders:read'] }))).toEqual(['sale.completed']);
    expect(await types(sandbox.createKey({ permissions: [] }))).toEqual([]);
    expect(await types(sandbox.createKey({ permissions: ['range:read'], locations: [2] }))).toEqual([
      'range.rental.checked_out',
    ]);
    expect(await types(everything, '&type=sale.completed')).toEqual(['sale.completed']);
    expect(await types(everything, `&updated_since=${mark}`)).toHaveLength(4);
  });

  it('reduces embedded customers without customers:read and drops date_of_birth without customer_dob:read', async () => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/a', types: ['sale.completed'] });
    closeVisitWithOvertime(sandbox);
    const customerIn = async (key: string) =>
      (await call(sandbox, 'GET', '/v1/events', { key })).json.data[0].data.object.customer;
    const reduced = await customerIn(sandbox.createKey({ permissions: ['orders:read'] }));
    expect(reduced).toEqual({ object: 'customer', id: expect.any(Number) });
    const noDob = await customerIn(sandbox.createKey({ permissions: ['orders:read', 'customers:read'] }));
    expect(noDob.email).toMatch(/@/);
    expect(noDob).not.toHaveProperty('date_of_birth');
    const withDob = await customerIn(
      sandbox.createKey({ permissions: ['orders:read', 'customers:read', 'customer_dob:read'] }),
    );
    expect(withDob.date_of_birth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('keeps 30 days of events and payloads as snapshots of event time', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    sandbox.webhooks.addEndpoint({
      url: 'https://hooks.sandbox.invalid/a',
      types: ['range.rental.checked_out'],
    });
    sandbox.register.rentOut(1, { customerId: 1 });
    sandbox.register.returnRental(1);
    const [event] = (await call(sandbox, 'GET', '/v1/events', { key })).json.data;
    expect(event.data.object.status).toBe('checked_out');
    sandbox.clock.advance('30d');
    expect((await call(sandbox, 'GET', '/v1/events', { key })).json.data).toHaveLength(1);
    sandbox.clock.advance('1s');
    expect((await call(sandbox, 'GET', '/v1/events', { key })).json.data).toEqual([]);
  });
});
