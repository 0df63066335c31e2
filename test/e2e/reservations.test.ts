// The range reservation state machine (reference section 3), driven through ShopClient over real HTTP:
// every transition the API and the register can make, and every refused one.
import { describe, expect, it } from 'vitest';
import { ConflictError, type ShopClient } from '../../src/index.js';
import { at, conformanceTest, failure, useE2E } from './support/harness.js';

const e2e = useE2E();

/** Books the first free rifle lane for the window; `extra` overrides the booking fields. */
async function bookLane(shop: ShopClient, hours: [number, number], extra: Record<string, unknown> = {}) {
  const window = { starts_at: at(hours[0], 1), ends_at: at(hours[1], 1) };
  const [free] = await shop.range.availability.list({ ...window, lane_type: ['rifle'], party_size: 2 });
  expect(free).toBeDefined();
  return shop.range.reservations.create({
    ...window,
    resource_ids: [free!.resource.id],
    party_size: 2,
    customer_id: 3,
    ...extra,
  });
}

/** Subscribes an endpoint to everything, so the feed records events (it never receives: no flush). */
function recordEvents(): void {
  e2e.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });
}

describe('a reservation through its life (reference section 3)', () => {
  it('books a lane, checks it in, and the register closes the visit as completed', async () => {
    recordEvents();
    const shop = e2e.client();
    const booked = await bookLane(shop, [9, 10]);
    expect(booked).toMatchObject({ status: 'booked', source: 'api', payment_status: 'paid' });
    expect(booked.paid_cents).toBe(booked.lines.reduce((sum, line) => sum + line.total_cents, 0));

    const checkedIn = await shop.range.reservations.checkIn(booked.id);
    expect(checkedIn).toMatchObject({ id: booked.id, status: 'checked_in' });
    expect((await shop.range.reservations.retrieve(booked.id)).checked_in_at).not.toBeNull();

    e2e.sandbox.register.closeVisit(booked.id, { overtimeCents: 1500 });
    const completed = await shop.range.reservations.retrieve(booked.id);
    expect(completed.status).toBe('completed');
    expect(completed.completed_at).not.toBeNull();
    expect(completed.lines.at(-1)).toMatchObject({ kind: 'adjustment', total_cents: 1500 });

    const types: string[] = [];
    for await (const event of shop.events.list()) {
      if ((event.data.object as { id?: unknown }).id === booked.id) types.push(event.type);
    }
    expect(types).toEqual([
      'range.reservation.booked',
      'range.reservation.checked_in',
      'range.reservation.completed',
    ]);
  });

  it('marks a booked reservation no-show and flags its lane for reset', async () => {
    const shop = e2e.client();
    const booked = await bookLane(shop, [11, 12]);
    const laneId = booked.lines[0]!.resource_id;
    const noShow = await shop.range.reservations.markNoShow(booked.id);
    expect(noShow).toMatchObject({ id: booked.id, status: 'no_show' });
    expect((await shop.range.reservations.retrieve(booked.id)).no_show_at).not.toBeNull();
    const lanes = await shop.range.resources.list({ type: 'lane' }).toArray();
    expect(lanes.find((lane) => lane.id === laneId)?.floor_status).not.toBe('idle');
  });

  it.each([
    { from: 'booked (paid)', paid: true, checkIn: false, refund: true },
    { from: 'booked (unpaid, settled at the desk)', paid: false, checkIn: false, refund: false },
    { from: 'checked_in (paid)', paid: true, checkIn: true, refund: true },
  ])('cancels from $from with requires_manual_refund $refund', async ({ paid, checkIn, refund }) => {
    const shop = e2e.client();
    const hour = 13 + (paid ? 0 : 1) + (checkIn ? 2 : 0);
    const booked = await bookLane(shop, [hour, hour + 1], { paid });
    if (checkIn) await shop.range.reservations.checkIn(booked.id);
    const emailsBefore = e2e.sandbox.sentEmails().length;

    const cancelled = await shop.range.reservations.cancel(booked.id, { reason: 'Weather' });

    expect(cancelled).toMatchObject({
      id: booked.id,
      status: 'cancelled',
      cancel_reason: 'Weather',
      requires_manual_refund: refund,
    });
    expect(e2e.sandbox.sentEmails().slice(emailsBefore)).toEqual([
      expect.objectContaining({ kind: 'reservation_cancellation', reservation_id: booked.id }),
    ]);
    // The lane's time is released: the same window can be booked again.
    const again = await shop.range.reservations.create({
      resource_ids: [booked.lines[0]!.resource_id],
      starts_at: booked.starts_at,
      ends_at: booked.ends_at,
      party_size: 1,
      customer_id: 4,
    });
    expect(again.status).toBe('booked');
  });

  // The seed holds an unconfirmed lane hold (the API cannot create one): cancelling it sends no email and
  // fires no range.reservation.cancelled (neither is due for a booking that was never confirmed).
  it('cancels a held reservation from the seed', async () => {
    const shop = e2e.client();
    const [held] = (await shop.range.reservations.list({ status: 'held' })).data;
    expect(held).toMatchObject({ status: 'held', confirmed_at: null, paid_cents: 0 });
    const emailsBefore = e2e.sandbox.sentEmails().length;
    const cancelled = await shop.range.reservations.cancel(held!.id, { reason: 'Cart abandoned' });
    expect(cancelled).toMatchObject({ status: 'cancelled', requires_manual_refund: false });
    expect(e2e.sandbox.sentEmails()).toHaveLength(emailsBefore);
    await expect(shop.range.reservations.checkIn(held!.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  it('books seats in a class session and takes them off seats_left', async () => {
    const shop = e2e.client();
    const sessions = await shop.range.sessions.list().toArray();
    const open = sessions.find((session) => session.status === 'scheduled' && session.seats_left >= 3);
    expect(open).toBeDefined();
    const booking = await shop.range.reservations.create({
      class_session_id: open!.id,
      party_size: 2,
      customer_id: 2,
    });
    expect(booking).toMatchObject({ class_session_id: open!.id, starts_at: open!.starts_at });
    const after = (await shop.range.sessions.list({ class_id: open!.class_id }).toArray()).find(
      (session) => session.id === open!.id,
    );
    expect(after?.seats_left).toBe(open!.seats_left - 2);
  });
});

describe('transitions the state machine refuses (409 INVALID_STATE, nothing changes)', () => {
  type Action = 'checkIn' | 'markNoShow' | 'cancel';
  const refused: { state: string; action: Action; reach: Action[] }[] = [
    { state: 'checked_in', action: 'checkIn', reach: ['checkIn'] },
    { state: 'checked_in', action: 'markNoShow', reach: ['checkIn'] },
    { state: 'no_show', action: 'checkIn', reach: ['markNoShow'] },
    { state: 'no_show', action: 'markNoShow', reach: ['markNoShow'] },
    { state: 'no_show', action: 'cancel', reach: ['markNoShow'] },
    { state: 'cancelled', action: 'checkIn', reach: ['cancel'] },
    { state: 'cancelled', action: 'markNoShow', reach: ['cancel'] },
    { state: 'cancelled', action: 'cancel', reach: ['cancel'] },
  ];

  it.each(refused)('refuses $action on a $state reservation', async ({ state, action, reach }) => {
    const shop = e2e.client();
    const hour = 2 + refused.findIndex((row) => row.state === state && row.action === action);
    const booked = await bookLane(shop, [hour, hour + 1], { customer_id: 5 });
    for (const step of reach) await shop.range.reservations[step](booked.id);

    const error = await failure(shop.range.reservations[action](booked.id));

    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'INVALID_STATE', details: { status: state } });
    expect((await shop.range.reservations.retrieve(booked.id)).status).toBe(state);
  });

  it.each(['checkIn', 'markNoShow', 'cancel'] as const)(
    'refuses %s on a visit the register completed',
    async (action) => {
      const shop = e2e.client();
      const [completed] = (await shop.range.reservations.list({ status: 'completed' })).data;
      expect(completed).toBeDefined();
      const error = await failure(shop.range.reservations[action](completed!.id));
      expect(error).toMatchObject({ status: 409, code: 'INVALID_STATE', details: { status: 'completed' } });
    },
  );
});

conformanceTest(e2e, 8);
