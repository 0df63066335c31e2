import { describe, expect, it } from 'vitest';
import { SandboxUsageError } from '../../src/testing/index.js';
import { call, listAll, newSandbox } from './helpers.js';

const RENTAL_EVENTS = [
  'range.rental.checked_out',
  'range.rental.checked_in',
  'range.rental.out_of_service',
  'range.rental.returned_to_service',
  'range.reservation.completed',
  'sale.completed',
];

function withEvents() {
  const sandbox = newSandbox();
  sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: RENTAL_EVENTS });
  const key = sandbox.createKey();
  const events = async () => (await call(sandbox, 'GET', '/v1/events?limit=200', { key })).json.data;
  return { sandbox, key, events };
}

describe('sandbox rental fleet reads', () => {
  it('lists rentals by status and refuses any other status value with 400', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const all = await listAll(sandbox, '/v1/range/rentals', key);
    expect(new Set(all.map((row) => row.status))).toEqual(
      new Set(['available', 'checked_out', 'maintenance', 'retired']),
    );
    const out = await listAll(sandbox, '/v1/range/rentals?status=checked_out', key);
    expect(out).toHaveLength(1);
    expect(out[0].checkout).toMatchObject({
      object: 'range_rental_checkout',
      rental_id: out[0].id,
      checked_in_at: null,
    });
    expect(all.find((row) => row.status === 'available').checkout).toBeNull();
    const maintenance = all.find((row) => row.status === 'maintenance');
    expect(maintenance.out_of_service_reason).toMatch(/^Returned: /);
    const bad = await call(sandbox, 'GET', '/v1/range/rentals?status=lost', { key });
    expect([bad.status, bad.json.error.code, Object.keys(bad.json.error.details)]).toEqual([
      400,
      'VALIDATION_ERROR',
      ['status'],
    ]);
  });

  it('retrieves a rental with its last 20 checkouts, newest first', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    for (let visit = 0; visit < 25; visit++) {
      sandbox.register.rentOut(1, { customerId: 1 + (visit % 5) });
      sandbox.clock.advance('1h');
      sandbox.register.returnRental(1, { condition: 'Good', roundsFired: 10 });
    }
    const res = await call(sandbox, 'GET', '/v1/range/rentals/1', { key });
    const recent = res.json.data.recent_checkouts;
    expect(recent).toHaveLength(20);
    const times = recent.map((row: { checked_out_at: string }) => row.checked_out_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(recent[0].checked_out_at).toBe(new Date(sandbox.clock.nowMs() - 3_600_000).toISOString());
    expect((await call(sandbox, 'GET', '/v1/range/rentals/999', { key })).status).toBe(404);
  });

  it('lists checkouts oldest first with rental_id, customer_id, reservation_id and open filters', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const open = await listAll(sandbox, '/v1/range/rental-checkouts?open=true', key);
    expect(open).toHaveLength(1);
    expect(open[0].reservation_id).not.toBeNull();
    const byVisit = await listAll(
      sandbox,
      `/v1/range/rental-checkouts?reservation_id=${open[0].reservation_id}`,
      key,
    );
    expect(byVisit.map((row) => row.id)).toEqual([open[0].id]);
    const closed = await listAll(sandbox, '/v1/range/rental-checkouts?open=false&rental_id=1', key);
    expect(closed.length).toBeGreaterThan(2);
    expect(closed.every((row) => row.rental_id === 1 && row.checked_in_at !== null)).toBe(true);
    const customer = closed[0].customer_id;
    const mine = await listAll(sandbox, `/v1/range/rental-checkouts?customer_id=${customer}`, key);
    expect(mine.every((row) => row.customer_id === customer)).toBe(true);
    const ids = (await listAll(sandbox, '/v1/range/rental-checkouts?limit=7', key)).map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect((await call(sandbox, 'GET', '/v1/range/rental-checkouts?open=maybe', { key })).status).toBe(400);
  });
});

describe('sandbox register actions', () => {
  it('rents a gun out: checked_out with an open checkout and range.rental.checked_out', async () => {
    const { sandbox, key, events } = withEvents();
    const rental = sandbox.register.rentOut(1, { customerId: 3, reservationId: 7 });
    expect(rental.status).toBe('checked_out');
    const read = (await call(sandbox, 'GET', '/v1/range/rentals/1', { key })).json.data;
    expect(read.checkout).toMatchObject({
      customer_id: 3,
      reservation_id: 7,
      condition_out: 'Good',
      checked_in_at: null,
    });
    const [event] = await events();
    expect(event.type).toBe('range.rental.checked_out');
    expect(event.data.object).toMatchObject({ id: 1, status: 'checked_out', checkout: { customer_id: 3 } });
    expect(() => sandbox.register.rentOut(1, { customerId: 3 })).toThrow(SandboxUsageError);
  });

  it('a Good return adds rounds and sends checked_in with last_checkout', async () => {
    const { sandbox, events } = withEvents();
    const before = sandbox.register.rentOut(2, { customerId: 4 }).round_count;
    sandbox.clock.advance('90m');
    const after = sandbox.register.returnRental(2, { condition: 'Good', roundsFired: 150 });
    expect(after).toMatchObject({
      status: 'available',
      round_count: before + 150,
      out_of_service_reason: null,
    });
    const last = (await events()).at(-1);
    expect(last.type).toBe('range.rental.checked_in');
    expect(last.data.object.last_checkout).toMatchObject({
      condition_in: 'Good',
      rounds_fired: 150,
      checked_in_at: sandbox.clock.iso(),
    });
    expect(last.data.object.checkout).toBeNull();
  });

  it('a Damaged return sends checked_in then out_of_service; returnToService brings it back', async () => {
    const { sandbox, events } = withEvents();
    sandbox.register.rentOut(3, { customerId: 4 });
    const damaged = sandbox.register.returnRental(3, { condition: 'Damaged: bent ejector', roundsFired: 40 });
    expect(damaged).toMatchObject({
      status: 'maintenance',
      out_of_service_reason: 'Returned: Damaged: bent ejector',
    });
    expect((await events()).map((event: { type: string }) => event.type).slice(-2)).toEqual([
      'range.rental.checked_in',
      'range.rental.out_of_service',
    ]);
    sandbox.clock.advance('1d');
    const fixed = sandbox.register.returnToService(3);
    expect(fixed).toMatchObject({
      status: 'available',
      out_of_service_reason: null,
      last_serviced_on: sandbox.clock.iso().slice(0, 10),
    });
    expect((await events()).at(-1).type).toBe('range.rental.returned_to_service');
    expect(() => sandbox.register.returnRental(3, { condition: 'Fine' })).toThrow(SandboxUsageError);
  });

  it('Needs cleaning also takes the gun out of service', () => {
    const sandbox = newSandbox();
    sandbox.register.rentOut(4, { customerId: 1 });
    expect(sandbox.register.returnRental(4, { condition: 'Needs cleaning' }).status).toBe('maintenance');
  });

  it('closeVisit with overtime completes the visit and rings up a sale.completed order', async () => {
    const { sandbox, key, events } = withEvents();
    const visit = (await call(sandbox, 'GET', '/v1/range/reservations?status=checked_in', { key })).json
      .data[0];
    const closed = sandbox.register.closeVisit(visit.id, { overtimeCents: 1250 });
    expect(closed.status).toBe('completed');
    expect(closed.order_id).not.toBeNull();
    expect(closed.lines.at(-1)).toMatchObject({ kind: 'adjustment', total_cents: 1250 });
    // The seeded party's rifle comes back first, then the overtime sale, then the completion.
    const [returned, sale, completed] = await events();
    expect(returned.type).toBe('range.rental.checked_in');
    expect(returned.data.object.last_checkout).toMatchObject({ reservation_id: visit.id });
    expect(sale.type).toBe('sale.completed');
    expect(sale.data.object).toMatchObject({ object: 'order', id: closed.order_id, total_cents: 1250 });
    expect(sale.data.object.customer).toMatchObject({ object: 'customer', id: visit.customer_ids[0] });
    expect(completed.type).toBe('range.reservation.completed');
    expect(() => sandbox.register.closeVisit(visit.id)).toThrow(SandboxUsageError);
  });
});
