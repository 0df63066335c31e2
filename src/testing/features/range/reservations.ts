import { invalidState } from '../../errors.js';
import type { CustomerRecord } from '../../state/shop.js';
import { touch } from '../../state/stamps.js';
import type { DomainWorld } from '../world.js';
import { refreshSeats } from './rules.js';
import type { RangeReservationRecord, ReservationLine } from './state.js';

/** What a new reservation is made of, whoever creates it (API, seed, front desk). */
export interface NewReservation {
  readonly locationId: number;
  readonly classSessionId: number | null;
  readonly source: string;
  readonly partySize: number;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly customer: CustomerRecord | null;
  readonly contact?: { name?: string | null; email?: string | null; phone?: string | null };
  readonly lines: ReservationLine[];
  readonly paid: boolean;
  readonly amountCents?: number;
  readonly status?: string;
  readonly createdAt: string;
}

/** Builds and stores a reservation; the caller has checked every rule. */
export function insertReservation(world: DomainWorld, input: NewReservation): RangeReservationRecord {
  const price = input.lines.reduce((total, line) => total + line.total_cents, 0);
  const customer = input.customer;
  const status = input.status ?? 'booked';
  const reservation = world.state.range.reservations.insert((id) => ({
    object: 'range_reservation',
    id,
    location_id: input.locationId,
    class_session_id: input.classSessionId,
    status,
    source: input.source,
    party_size: input.partySize,
    starts_at: input.startsAt,
    ends_at: input.endsAt,
    contact: {
      name: input.contact?.name ?? (customer ? `${customer.first_name} ${customer.last_name}` : null),
      email: input.contact?.email ?? customer?.email ?? null,
      phone: input.contact?.phone ?? customer?.phone ?? null,
    },
    customer_ids: customer ? [customer.id] : [],
    // payment_status values other than paid are not shown; the sandbox says unpaid for desk settlement.
    payment_status: input.paid ? 'paid' : 'unpaid',
    paid_cents: input.paid ? (input.amountCents ?? price) : 0,
    refunded_cents: 0,
    order_id: null,
    storefront_order_id: input.source === 'storefront_widget' ? `SF-${100_000 + id}` : null,
    lines: input.lines,
    confirmed_at: status === 'held' ? null : input.createdAt,
    checked_in_at: null,
    completed_at: null,
    cancelled_at: null,
    no_show_at: null,
    cancel_reason: null,
    created_at: input.createdAt,
    updated_at: input.createdAt,
  }));
  refreshSessionOf(world, reservation);
  return reservation;
}

function refreshSessionOf(world: DomainWorld, reservation: RangeReservationRecord): void {
  if (reservation.class_session_id === null) return;
  const session = world.state.range.sessions.get(reservation.class_session_id);
  if (session) refreshSeats(world.state.range, session, world.clock.iso());
}

/** booked -> checked_in (reference section 3). */
export function checkIn(world: DomainWorld, reservation: RangeReservationRecord): void {
  if (reservation.status !== 'booked') throw invalidState('reservation', reservation.status, 'checked in');
  const now = world.clock.iso();
  Object.assign(reservation, { status: 'checked_in', checked_in_at: now });
  touch(reservation, world.clock.nowMs());
  world.events.record('range.reservation.checked_in', reservation);
}

/** booked -> no_show; the lane is flagged for reset (floor_status needs_reset, the sandbox's value). */
export function markNoShow(world: DomainWorld, reservation: RangeReservationRecord): void {
  if (reservation.status !== 'booked')
    throw invalidState('reservation', reservation.status, 'marked no-show');
  const now = world.clock.iso();
  Object.assign(reservation, { status: 'no_show', no_show_at: now });
  touch(reservation, world.clock.nowMs());
  for (const line of reservation.lines) {
    const resource =
      line.kind === 'lane_time' ? world.state.range.resources.get(line.resource_id) : undefined;
    if (resource) {
      resource.floor_status = 'needs_reset';
      touch(resource, world.clock.nowMs());
    }
  }
  world.events.record('range.reservation.no_show', reservation);
}

/**
 * held, booked or checked_in -> cancelled. Seats and lane time are released by the status change; a
 * confirmed booking gets the cancellation email and the event. Returns requires_manual_refund.
 */
export function cancel(
  world: DomainWorld,
  reservation: RangeReservationRecord,
  reason: string | null,
): boolean {
  if (!['held', 'booked', 'checked_in'].includes(reservation.status)) {
    throw invalidState('reservation', reservation.status, 'cancelled');
  }
  const now = world.clock.iso();
  Object.assign(reservation, {
    status: 'cancelled',
    cancelled_at: now,
    cancel_reason: reason,
    updated_at: now,
  });
  refreshSessionOf(world, reservation);
  if (reservation.confirmed_at !== null) {
    world.state.shop.outbox.push({
      to: reservation.contact.email,
      kind: 'reservation_cancellation',
      subject: `Your booking #${reservation.id} is cancelled`,
      reservation_id: reservation.id,
      sent_at: now,
    });
    world.events.record('range.reservation.cancelled', reservation);
  }
  return reservation.paid_cents > reservation.refunded_cents;
}

/** The confirmation email with waiver links every accepted booking sends. */
export function sendConfirmation(world: DomainWorld, reservation: RangeReservationRecord): void {
  world.state.shop.outbox.push({
    to: reservation.contact.email,
    kind: 'reservation_confirmation',
    subject: `Booking #${reservation.id} confirmed: sign your waiver before you arrive`,
    reservation_id: reservation.id,
    sent_at: world.clock.iso(),
  });
}
