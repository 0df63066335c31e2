// The seeded shop holds a record in every state the reference lists, including the reservation states the
// API cannot produce (held, released, in_progress), as docs/testing.md promises.
import { describe, expect, it } from 'vitest';
import { REFERENCE_RESERVATION_STATUSES } from '../support/reference.js';
import { call, listAll, newSandbox } from './helpers.js';

type Row = Record<string, unknown> & { id: number; status: string };

const RESERVATION_STATES: readonly string[] = REFERENCE_RESERVATION_STATUSES;

async function seeded() {
  const sandbox = newSandbox();
  sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
  const key = sandbox.createKey();
  const reservations: Row[] = await listAll(
    sandbox,
    '/v1/range/reservations?limit=200&from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z',
    key,
  );
  const only = (status: string) => {
    const rows = reservations.filter((row) => row.status === status);
    expect(rows).toHaveLength(1);
    return rows[0] as Row & { starts_at: string; ends_at: string; lines: { resource_id: number }[] };
  };
  return { sandbox, key, reservations, only };
}

describe('seeded states (docs/testing.md: bookings in every state)', () => {
  it('seeds a reservation in every state of reference section 3, a rental and membership in each of theirs', async () => {
    const { sandbox, key, reservations } = await seeded();
    expect(new Set(reservations.map((row) => row.status))).toEqual(new Set(RESERVATION_STATES));
    const rentals: Row[] = await listAll(sandbox, '/v1/range/rentals', key);
    expect(new Set(rentals.map((row) => row.status))).toEqual(
      new Set(['available', 'checked_out', 'maintenance', 'retired']),
    );
    const memberships: Row[] = await listAll(sandbox, '/v1/memberships', key);
    expect(new Set(memberships.map((row) => row.status))).toEqual(
      new Set(['pending', 'active', 'past_due', 'frozen', 'expired', 'cancelled']),
    );
  });

  it('a hold is unconfirmed and unpaid, keeps its lane, refuses check-in, and cancels quietly', async () => {
    const { sandbox, key, only } = await seeded();
    const held = only('held');
    expect(held).toMatchObject({ confirmed_at: null, paid_cents: 0, payment_status: 'unpaid' });
    const lane = held.lines[0]!.resource_id;
    const window = `starts_at=${held.starts_at}&ends_at=${held.ends_at}&location_id=${held.location_id}`;
    const free = async () =>
      (await call(sandbox, 'GET', `/v1/range/availability?${window}`, { key })).json.data.map(
        (row: { resource: { id: number } }) => row.resource.id,
      );
    expect(await free()).not.toContain(lane);

    const checkIn = await call(sandbox, 'POST', `/v1/range/reservations/${held.id}/check-in`, { key });
    expect(checkIn.json.error.code).toBe('INVALID_STATE');

    const emails = sandbox.sentEmails().length;
    const cancelled = await call(sandbox, 'POST', `/v1/range/reservations/${held.id}/cancel`, { key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toMatchObject({ status: 'cancelled', requires_manual_refund: false });
    // Never confirmed: no cancellation email and no range.reservation.cancelled.
    expect(sandbox.sentEmails()).toHaveLength(emails);
    const events = (await call(sandbox, 'GET', '/v1/events', { key })).json.data;
    expect(events.map((event: { type: string }) => event.type)).not.toContain('range.reservation.cancelled');
    expect(await free()).toContain(lane);
  });

  it('a released hold no longer takes its lane; cancel and check-in refuse it', async () => {
    const { sandbox, key, only } = await seeded();
    const released = only('released');
    expect(released.confirmed_at).toBeNull();
    const booking = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: {
        resource_ids: [released.lines[0]!.resource_id],
        starts_at: released.starts_at,
        ends_at: released.ends_at,
        party_size: 1,
        customer_id: 1,
      },
    });
    expect(booking.status).toBe(201);
    for (const action of ['cancel', 'check-in', 'no-show']) {
      const refused = await call(sandbox, 'POST', `/v1/range/reservations/${released.id}/${action}`, { key });
      expect(refused.json.error.code).toBe('INVALID_STATE');
    }
  });

  it('a visit in progress is on the lane now and closes at the register as completed', async () => {
    const { sandbox, key, only } = await seeded();
    const visit = only('in_progress');
    const now = sandbox.clock.nowMs();
    expect(Date.parse(visit.starts_at)).toBeLessThanOrEqual(now);
    expect(Date.parse(visit.ends_at)).toBeGreaterThan(now);
    expect(visit.checked_in_at).not.toBeNull();
    const cancel = await call(sandbox, 'POST', `/v1/range/reservations/${visit.id}/cancel`, { key });
    expect(cancel.json.error.code).toBe('INVALID_STATE');
    sandbox.register.closeVisit(visit.id);
    const closed = await call(sandbox, 'GET', `/v1/range/reservations/${visit.id}`, { key });
    expect(closed.json.data).toMatchObject({ status: 'completed', completed_at: sandbox.clock.iso() });
  });
});
