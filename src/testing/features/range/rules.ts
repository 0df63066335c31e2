import { touch } from '../../state/stamps.js';
import type { RangeReservationRecord, RangeResourceRecord, RangeSessionRecord, RangeState } from './state.js';

/** Reservation states that hold a lane's time. */
export const HOLDING_STATUSES: ReadonlySet<string> = new Set(['held', 'booked', 'checked_in', 'in_progress']);
/** Reservation states that no longer take a seat in a class session. */
const RELEASED_STATUSES: ReadonlySet<string> = new Set(['cancelled', 'released']);
/** The longest lane booking the sandbox's range rules allow (a rule of the sandbox's own). */
export const MAX_LANE_BOOKING_MS = 4 * 3_600_000;

/**
 * The range's price for a party, in cents. The reference does not show the pricing rules; the sandbox
 * charges base_price_cents per shooter per hour, pro rata to the minute.
 */
export function lanePrice(
  resource: RangeResourceRecord,
  partySize: number,
  startsAt: number,
  endsAt: number,
): number {
  const minutes = Math.round((endsAt - startsAt) / 60_000);
  return Math.round((resource.base_price_cents * partySize * minutes) / 60);
}

/** The resources a lane reservation occupies. */
export function reservedResourceIds(reservation: RangeReservationRecord): number[] {
  return reservation.lines.filter((line) => line.kind === 'lane_time').map((line) => line.resource_id);
}

function overlaps(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart < bEnd && bStart < aEnd;
}

/** Whether anything holds the resource during [startsAt, endsAt): a lane booking or a scheduled session. */
export function resourceBusy(
  range: RangeState,
  resourceId: number,
  startsAt: number,
  endsAt: number,
): boolean {
  const booked = range.reservations.find(
    (reservation) =>
      reservation.class_session_id === null &&
      HOLDING_STATUSES.has(reservation.status) &&
      reservedResourceIds(reservation).includes(resourceId) &&
      overlaps(Date.parse(reservation.starts_at), Date.parse(reservation.ends_at), startsAt, endsAt),
  );
  if (booked) return true;
  return (
    range.sessions.find(
      (session) =>
        session.resource_id === resourceId &&
        session.status === 'scheduled' &&
        overlaps(Date.parse(session.starts_at), Date.parse(session.ends_at), startsAt, endsAt),
    ) !== undefined
  );
}

/** A lane the floor has taken out of service: bookable status, but no one can shoot on it now. */
export function outOfService(resource: RangeResourceRecord): boolean {
  return resource.floor_status === 'out_of_service';
}

/** Recomputes seats_booked and seats_left of a session from its reservations. */
export function refreshSeats(range: RangeState, session: RangeSessionRecord, now: string): void {
  const booked = range.reservations
    .filter(
      (reservation) =>
        reservation.class_session_id === session.id && !RELEASED_STATUSES.has(reservation.status),
    )
    .reduce((total, reservation) => total + reservation.party_size, 0);
  if (booked === session.seats_booked) return;
  session.seats_booked = booked;
  session.seats_left = Math.max(0, session.capacity - booked);
  touch(session, Date.parse(now));
}

/** Age in whole years on a day, from a YYYY-MM-DD date of birth. */
export function ageOn(dateOfBirth: string, atMs: number): number {
  const birth = new Date(`${dateOfBirth}T00:00:00Z`);
  const at = new Date(atMs);
  let age = at.getUTCFullYear() - birth.getUTCFullYear();
  const beforeBirthday =
    at.getUTCMonth() < birth.getUTCMonth() ||
    (at.getUTCMonth() === birth.getUTCMonth() && at.getUTCDate() < birth.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age;
}
