import { findVisible } from '../../../http/access.js';
import { pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute } from '../../../http/rules.js';
import type { SandboxWorld } from '../../../world.js';
import { bookLanes, bookSession, guestFor } from '../booking.js';
import * as reservations from '../reservations.js';
import type { RangeReservationRecord } from '../state.js';

const RESERVATION = 'range reservation';

function reservationAt(context: RouteContext) {
  return findVisible(
    context,
    context.sandbox.state.range.reservations,
    pathId(context.params, RESERVATION),
    RESERVATION,
  );
}

/**
 * POST /v1/range/reservations in either mode; every check runs before anything is written. The spec's rules
 * read the body (one of two forms: lane or class seats); which form it is, and what each form needs, is the
 * booking's rule here.
 */
const create = bodyRoute(
  'range.reservations.create',
  // A customer is matched by email, so the object needs one (the reference: "matched by email").
  { customer: { properties: { email: { required: true } } } },
  (context, body, fields) => {
    const sessionId = body.class_session_id;
    const classMode = fields.has('class_session_id');
    const hasLaneFields = fields.has('resource_ids');
    if (!classMode && !hasLaneFields) {
      fields.fail(
        'resource_ids',
        'is required for a lane booking (or send class_session_id for class seats)',
      );
      fields.fail('class_session_id', 'is required for a class booking (or send resource_ids for a lane)');
    }
    if (classMode && hasLaneFields) {
      fields.fail('class_session_id', 'cannot be combined with resource_ids: book a lane or class seats');
    }
    if (!classMode && hasLaneFields) {
      for (const name of ['starts_at', 'ends_at'] as const)
        if (!fields.has(name)) fields.fail(name, 'is required');
    }
    if (classMode && fields.has('notes')) fields.fail('notes', 'is accepted on lane bookings only');
    const { starts_at: startsAt, ends_at: endsAt } = body;
    if (startsAt !== undefined && endsAt !== undefined && endsAt <= startsAt) {
      fields.fail('ends_at', 'must be after starts_at');
    }
    const guest = guestFor(
      context.sandbox,
      {
        customerId: body.customer_id,
        customer: body.customer_id === undefined ? (body.customer ?? null) : null,
        contact: body.contact ?? {},
      },
      fields,
      fields.within('customer'),
    );
    fields.done();
    const booking = {
      partySize: body.party_size!,
      guest,
      paid: body.paid ?? true,
      amountCents: body.amount_cents,
      externalReference: body.external_reference ?? null,
    };
    const reservation = !classMode
      ? bookLanes(context.sandbox, context.key, booking, {
          resourceIds: body.resource_ids!,
          startsAt: startsAt!,
          endsAt: endsAt!,
          locationId: body.location_id,
          notes: body.notes ?? null,
        })
      : bookSession(context.sandbox, context.key, booking, sessionId!);
    return created(reservation);
  },
);

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
      { name: 'from', match: (row, from: number) => Date.parse(row.starts_at) >= from },
      { name: 'to', match: (row, to: number) => Date.parse(row.starts_at) <= to },
      { name: 'location_id', field: 'location_id' },
    ],
    changedAt: 'updated_at',
    location: (row) => row.location_id,
  }),
  create,
  {
    ...routeFor('range.reservations.retrieve'),
    handle: (context) => ok(reservationAt(context)),
  },
  transition('range.reservations.checkIn', reservations.checkIn),
  transition('range.reservations.markNoShow', reservations.markNoShow),
  bodyRoute('range.reservations.cancel', {}, (context, body, fields) => {
    fields.done();
    const reservation = reservationAt(context);
    const requiresManualRefund = reservations.cancel(context.sandbox, reservation, body.reason ?? null);
    // The reference shows only requires_manual_refund; the sandbox returns it on the reservation.
    return ok({ ...reservation, requires_manual_refund: requiresManualRefund });
  }),
];
