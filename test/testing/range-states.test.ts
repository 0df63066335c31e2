import { describe, expect, it } from 'vitest';
import { at, call, newSandbox } from './helpers.js';

const RANGE_EVENTS = [
  'range.reservation.booked',
  'range.reservation.checked_in',
  'range.reservation.no_show',
  'range.reservation.cancelled',
  'range.reservation.completed',
];

async function booked(paid = true) {
  const sandbox = newSandbox();
  sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: RANGE_EVENTS });
  const key = sandbox.createKey();
  const res = await call(sandbox, 'POST', '/v1/range/reservations', {
    key,
    body: { resource_ids: [4], starts_at: at(2), ends_at: at(3), party_size: 1, customer_id: 1, paid },
  });
  const post = (action: string, body?: unknown) =>
    call(sandbox, 'POST', `/v1/range/reservations/${res.json.data.id}/${action}`, { key, body });
  const types = async () =>
    (await call(sandbox, 'GET', '/v1/events', { key })).json.data.map(
      (event: { type: string }) => event.type,
    );
  return { sandbox, key, id: res.json.data.id as number, post, types };
}

describe('sandbox reservation state machine (reference section 3)', () => {
  it('booked -> checked_in -> completed at the register, with their events', async () => {
    const { sandbox, id, post, types } = await booked();
    const checkedIn = await post('check-in');
    expect(checkedIn.status).toBe(200);
    expect(checkedIn.json.data).toMatchObject({
      id,
      status: 'checked_in',
      checked_in_at: sandbox.clock.iso(),
    });
    sandbox.clock.advance('1h');
    const closed = sandbox.register.closeVisit(id);
    expect(closed).toMatchObject({ status: 'completed', completed_at: sandbox.clock.iso() });
    expect(await types()).toEqual([
      'range.reservation.booked',
      'range.reservation.checked_in',
      'range.reservation.completed',
    ]);
    expect((await post('check-in')).json.error.code).toBe('INVALID_STATE');
    expect((await post('cancel')).json.error.code).toBe('INVALID_STATE');
  });

  it('booked -> no_show flags the lane for reset; a no-show cannot be checked in or cancelled', async () => {
    const { sandbox, key, post, types } = await booked();
    const res = await post('no-show');
    expect(res.json.data).toMatchObject({ status: 'no_show', no_show_at: sandbox.clock.iso() });
    const laneRes = await call(sandbox, 'GET', '/v1/range/resources?type=lane&limit=5', { key });
    expect(laneRes.json.data.find((row: { id: number }) => row.id === 4).floor_status).toBe('needs_reset');
    for (const action of ['check-in', 'no-show', 'cancel']) {
      const again = await post(action);
      expect([again.status, again.json.error.code]).toEqual([409, 'INVALID_STATE']);
    }
    expect(await types()).toEqual(['range.reservation.booked', 'range.reservation.no_show']);
  });

  it('cancel of a paid booking releases the lane, says requires_manual_refund and emails the guest', async () => {
    const { sandbox, key, post, types } = await booked();
    const res = await post('cancel', { reason: 'Rained out' });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Rained out',
      cancelled_at: sandbox.clock.iso(),
      requires_manual_refund: true,
    });
    expect(sandbox.sentEmails().at(-1)?.kind).toBe('reservation_cancellation');
    expect(await types()).toEqual(['range.reservation.booked', 'range.reservation.cancelled']);
    const rebook = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: { resource_ids: [4], starts_at: at(2), ends_at: at(3), party_size: 1, customer_id: 2 },
    });
    expect(rebook.status).toBe(201);
  });

  it('cancel of an unpaid or checked-in booking: no manual refund when nothing was paid', async () => {
    const unpaid = await booked(false);
    await unpaid.post('check-in');
    const res = await unpaid.post('cancel');
    expect(res.json.data).toMatchObject({
      status: 'cancelled',
      requires_manual_refund: false,
      cancel_reason: null,
    });
    expect((await unpaid.post('cancel')).json.error.code).toBe('INVALID_STATE');
  });

  it('cancelling class seats gives them back to the session', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const session = (await call(sandbox, 'GET', '/v1/range/sessions?class_id=1&limit=1', { key })).json
      .data[0];
    const res = await call(sandbox, 'POST', '/v1/range/reservations', {
      key,
      body: { class_session_id: session.id, party_size: 3, customer_id: 2 },
    });
    await call(sandbox, 'POST', `/v1/range/reservations/${res.json.data.id}/cancel`, { key });
    const after = (await call(sandbox, 'GET', '/v1/range/sessions?class_id=1&limit=1', { key })).json.data[0];
    expect(after.seats_left).toBe(session.seats_left);
  });

  it('answers 404 for actions on unknown reservations and lists with every filter', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    expect((await call(sandbox, 'POST', '/v1/range/reservations/999999/check-in', { key })).status).toBe(404);
    const list = async (query: string) =>
      (await call(sandbox, 'GET', `/v1/range/reservations?limit=200&${query}`, { key })).json.data;
    const checkedIn = await list('status=checked_in');
    expect(checkedIn.length).toBe(1);
    expect(checkedIn[0].status).toBe('checked_in');
    const session = (await list('class_session_id=1'))[0];
    expect(session.class_session_id).toBe(1);
    expect((await list('location_id=2')).every((row: { location_id: number }) => row.location_id === 2)).toBe(
      true,
    );
    const today = await list(`from=${at(0)}&to=${at(9)}`);
    expect(today.length).toBeGreaterThan(0);
    for (const row of today) expect(row.starts_at >= at(0) && row.starts_at <= at(9)).toBe(true);
    const sources = new Set((await list('source=walk_up')).map((row: { source: string }) => row.source));
    expect([...sources]).toEqual(['walk_up']);
    expect(await list('status=not_a_status')).toEqual([]);
  });
});
