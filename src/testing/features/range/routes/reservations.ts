import { findVisible } from '../../../http/access.js';
import { FieldReader, pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import type { SandboxWorld } from '../../../world.js';
import { bookLanes, bookSession, type Guest, guestFor } from '../booking.js';
import * as reservations from '../reservations.js';
import type { RangeReservationRecord } from '../state.js';

const RESERVATION = 'range reservation';

function readContact(reader: FieldReader): Guest['contact'] {
  const contact = reader.object('contact');
  return {
    name: contact?.string('name'),
    email: contact?.string('email'),
    phone: contact?.string('phone'),
  };
}

/** Reads customer_id / customer / contact; the guest is looked up by the booking's rule (`guestFor`). */
function readGuest(world: SandboxWorld, reader: FieldReader): Guest {
  const customerId = reader.integer('customer_id');
  const customerReader = reader.object('customer');
  const contact = readContact(reader);
  const customer =
    customerId === undefined && customerReader
      ? {
          email: customerReader.string('email', { required: true }),
          first_name: customerReader.string('first_name'),
          last_name: customerReader.string('last_name'),
          phone: customerReader.string('phone'),
        }
      : null;
  return guestFor(world, { customerId, customer, contact }, reader, customerReader ?? reader);
}

function reservationAt(context: RouteContext) {
  return findVisible(
    context,
    context.sandbox.state.range.reservations,
    pathId(context.params, RESERVATION),
    RESERVATION,
  );
}

/** POST /v1/range/reservations in either mode; every check runs before anything is written. */
function create(context: RouteContext) {
  const reader = FieldReader.body(context.body);
  const sessionId = reader.integer('class_session_id');
  const hasLaneFields = reader.has('resource_ids');
  if (sessionId === undefined && !hasLaneFields) {
    reader.fail('resource_ids', 'is required for a lane booking (or send class_session_id for class seats)');
    reader.fail('class_session_id', 'is required for a class booking (or send resource_ids for a lane)');
  }
  if (sessionId !== undefined && hasLaneFields) {
    reader.fail('class_session_id', 'cannot be combined with resource_ids: book a lane or class seats');
  }
  const laneMode = sessionId === undefined;
  const resourceIds = laneMode ? reader.integerList('resource_ids', { nonEmpty: true }) : undefined;
  const startsAt = laneMode ? reader.dateTime('starts_at', { required: hasLaneFields }) : undefined;
  const endsAt = laneMode ? reader.dateTime('ends_at', { required: hasLaneFields }) : undefined;
  const locationId = laneMode ? reader.integer('location_id') : undefined;
  const notes = reader.string('notes');
  if (!laneMode && notes !== undefined) reader.fail('notes', 'is accepted on lane bookings only');
  if (startsAt !== undefined && endsAt !== undefined && endsAt <= startsAt) {
    reader.fail('ends_at', 'must be after starts_at');
  }
  const partySize = reader.integer('party_size', { required: true, min: 1 });
  const paid = reader.boolean('paid') ?? true;
  const amountCents = reader.integer('amount_cents', { min: 0 });
  const externalReference = reader.string('external_reference') ?? null;
  const guest = readGuest(context.sandbox, reader);
  reader.done();
  const booking = { partySize: partySize!, guest, paid, amountCents, externalReference };
  const reservation = laneMode
    ? bookLanes(context.sandbox, context.key, booking, {
        resourceIds: resourceIds!,
        startsAt: startsAt!,
        endsAt: endsAt!,
        locationId,
        notes: notes ?? null,
      })
    : bookSession(context.sandbox, context.key, booking, sessionId!);
  return created(reservation);
}

/**
 * POST .../{id}/check-in and .../no-show: a transition of section 3 that takes no body, applies `apply`
 * (which refuses the wrong state with 409 INVALID_STATE) and answers the reservation.
 */
function transition(
  operationId: 'range.reservations.checkIn' | 'range.reservations.markNoShow',
  apply: (world: SandboxWorld, reservation: RangeReservationRecord) => void,
): RouteDefinition {
  return {
    ...routeFor(operationId),
    handle: (context) => {
      const reservation = reservationAt(context);
      apply(context.sandbox, reservation);
      return ok(reservation);
    },
  };
}

/** The range reservation endpoints (reference section 4, "Range"), with the state machine of section 3. */
export const rangeReservationRoutes: readonly RouteDefinition[] = [
  listRoute<RangeReservationRecord>('range.reservations.list', {
    rows: (sandbox) => sandbox.state.range.reservations,
    // Unknown status values give an empty list: the reference refuses them only on rentals.
    params: [
      { name: 'status', field: 'status' },
      { name: 'class_session_id', field: 'class_session_id' },
      { name: 'source', field: 'source' },
      { name: 'from', format: 'dateTime', match: (row, from: number) => Date.parse(row.starts_at) >= from },
      { name: 'to', format: 'dateTime', match: (row, to: number) => Date.parse(row.starts_at) <= to },
      { name: 'location_id', field: 'location_id' },
    ],
    changedAt: 'updated_at',
    location: (row) => row.location_id,
  }),
  { ...routeFor('range.reservations.create'), handle: create },
  {
    ...routeFor('range.reservations.retrieve'),
    handle: (context) => ok(reservationAt(context)),
  },
  transition('range.reservations.checkIn', reservations.checkIn),
  transition('range.reservations.markNoShow', reservations.markNoShow),
  {
    ...routeFor('range.reservations.cancel'),
    handle: (context) => {
      const reader = FieldReader.body(context.body);
      const reason = reader.string('reason') ?? null;
      reader.done();
      const reservation = reservationAt(context);
      const requiresManualRefund = reservations.cancel(context.sandbox, reservation, reason);
      // The reference shows only requires_manual_refund; the sandbox returns it on the reservation.
      return ok({ ...reservation, requires_manual_refund: requiresManualRefund });
    },
  },
];
