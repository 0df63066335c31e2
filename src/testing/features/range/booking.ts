import {
  apiError,
  type FieldProblems,
  notFound,
  type SandboxApiError,
  validationError,
} from '../../errors.js';
import type { CustomerRecord } from '../../state/shop.js';
import { type Actor, canSeeLocation, defaultLocationId, requireWritableLocation } from '../actor.js';
import { customerByEmail, customerNamed } from '../shop/customers.js';
import type { DomainWorld } from '../world.js';
import { insertReservation, sendConfirmation } from './reservations.js';
import { ageOn, lanePrice, MAX_LANE_BOOKING_MS, outOfService, resourceBusy } from './rules.js';
import type { RangeReservationRecord, ReservationLine } from './state.js';

/** What a booking's body says of its guest, read but not looked up. */
export interface GuestInput {
  readonly customerId: number | undefined;
  /** The `customer` object's fields, when one was sent (and no customer_id). */
  readonly customer: {
    readonly email?: string;
    readonly first_name?: string;
    readonly last_name?: string;
    readonly phone?: string;
  } | null;
  readonly contact: Guest['contact'];
}

/**
 * Who the booking is for: the customer `customer_id` names, else the one the `customer` object's email finds
 * (or a new one), else the contact alone. Problems are reported, not thrown.
 */
export function guestFor(
  world: DomainWorld,
  input: GuestInput,
  problems: FieldProblems,
  customerProblems: FieldProblems,
): Guest {
  let existing: CustomerRecord | null = null;
  let create: Guest['create'] = null;
  const { customer, contact } = input;
  if (input.customerId !== undefined) {
    existing = customerNamed(world, input.customerId, problems) ?? null;
  } else if (customer) {
    const { email, first_name: first, last_name: last } = customer;
    const match = email ? customerByEmail(world, email) : undefined;
    if (match) existing = match;
    else if (email) {
      if (!first) customerProblems.fail('first_name', 'is required for a new customer');
      if (!last) customerProblems.fail('last_name', 'is required for a new customer');
      if (first && last)
        create = { email, first_name: first, last_name: last, phone: customer.phone ?? null };
    }
  } else if (!contact.name && !contact.email) {
    problems.fail('contact', 'is required when neither customer_id nor customer is given');
  }
  return { existing, create, contact };
}

/** Who the booking is for, looked up before anything changes (`guestFor`). */
export interface Guest {
  readonly existing: CustomerRecord | null;
  readonly create: { email: string; first_name: string; last_name: string; phone: string | null } | null;
  readonly contact: { name?: string; email?: string; phone?: string };
}

/** Fields both modes share. */
export interface CommonBooking {
  readonly partySize: number;
  readonly guest: Guest;
  readonly paid: boolean;
  readonly amountCents: number | undefined;
  readonly externalReference: string | null;
}

/** Creates the guest's customer record if the booking brought a new one (customer.created). */
function resolveCustomer(world: DomainWorld, guest: Guest): CustomerRecord | null {
  if (guest.existing) return guest.existing;
  if (!guest.create) return null;
  const now = world.clock.iso();
  const customer = world.state.shop.customers.insert((id) => ({
    object: 'customer',
    id,
    ...guest.create!,
    date_of_birth: null,
    created_at: now,
    updated_at: now,
  }));
  world.events.record('customer.created', customer);
  return customer;
}

function finish(
  world: DomainWorld,
  booking: CommonBooking,
  fields: { locationId: number; classSessionId: number | null; startsAt: string; endsAt: string },
  lines: ReservationLine[],
  notes: string | null,
): RangeReservationRecord {
  const customer = resolveCustomer(world, booking.guest);
  const reservation = insertReservation(world, {
    ...fields,
    source: 'api',
    partySize: booking.partySize,
    customer,
    contact: booking.guest.contact,
    lines,
    paid: booking.paid,
    amountCents: booking.amountCents,
    createdAt: world.clock.iso(),
  });
  world.state.range.bookingExtras.set(reservation.id, {
    notes,
    external_reference: booking.externalReference,
  });
  sendConfirmation(world, reservation);
  world.events.record('range.reservation.booked', reservation);
  return reservation;
}

function constraint(message: string, details: Record<string, unknown> = {}): SandboxApiError {
  return apiError('CONSTRAINT_VIOLATION', message, details);
}

/** Lane mode: every resource free for the whole window, at one location the actor can see. */
export function bookLanes(
  world: DomainWorld,
  actor: Actor,
  booking: CommonBooking,
  input: {
    resourceIds: number[];
    startsAt: number;
    endsAt: number;
    locationId: number | undefined;
    notes: string | null;
  },
): RangeReservationRecord {
  if (input.startsAt < world.clock.nowMs()) throw validationError({ starts_at: ['must not be in the past'] });
  const locationId = input.locationId ?? defaultLocationId(world, actor);
  requireWritableLocation(world, actor, locationId);
  const resources = [...new Set(input.resourceIds)].map((id) => {
    const resource = world.state.range.resources.get(id);
    if (!resource || !canSeeLocation(actor, resource.location_id)) throw notFound('range resource');
    return resource;
  });
  for (const resource of resources) {
    if (resource.location_id !== locationId) {
      throw constraint(`${resource.name} is not at location ${locationId}`, { resource_id: resource.id });
    }
    if (resource.status !== 'active') {
      throw apiError('INVALID_RESOURCE', `${resource.name} is not active`, {
        resource_id: resource.id,
      });
    }
    if (resource.booking_mode !== 'exclusive') {
      throw constraint(`${resource.name} is booked by class session, not by time window`, {
        resource_id: resource.id,
      });
    }
  }
  if (input.endsAt - input.startsAt > MAX_LANE_BOOKING_MS) {
    throw constraint('Lane bookings are limited to 4 hours at this range', { max_minutes: 240 });
  }
  const capacity = resources.reduce((total, resource) => total + resource.capacity, 0);
  if (booking.partySize > capacity) {
    throw constraint(`A party of ${booking.partySize} does not fit (capacity ${capacity})`, { capacity });
  }
  for (const resource of resources) {
    if (
      outOfService(resource) ||
      resourceBusy(world.state.range, resource.id, input.startsAt, input.endsAt)
    ) {
      throw apiError('RESOURCE_UNAVAILABLE', `${resource.name} is not free for that time`, {
        resource_id: resource.id,
      });
    }
  }
  const minutes = Math.round((input.endsAt - input.startsAt) / 60_000);
  const lines = resources.map((resource, index) => {
    // The party is spread over the lanes; the price follows the shooters on each.
    const share = Math.ceil((booking.partySize - index) / resources.length);
    const price = lanePrice(resource, Math.max(1, share), input.startsAt, input.endsAt);
    return {
      kind: 'lane_time' as const,
      resource_id: resource.id,
      product_id: null,
      description: `${resource.name}, ${minutes} min, party of ${booking.partySize}`,
      quantity: 1,
      unit_cents: price,
      total_cents: price,
    };
  });
  const window = {
    startsAt: new Date(input.startsAt).toISOString(),
    endsAt: new Date(input.endsAt).toISOString(),
  };
  return finish(world, booking, { locationId, classSessionId: null, ...window }, lines, input.notes);
}

/** Class mode: seats in an open session; the session's time and price apply. */
export function bookSession(
  world: DomainWorld,
  actor: Actor,
  booking: CommonBooking,
  sessionId: number,
): RangeReservationRecord {
  const session = world.state.range.sessions.get(sessionId);
  if (!session || !canSeeLocation(actor, session.location_id)) throw notFound('class session');
  const rangeClass = world.state.range.classes.get(session.class_id);
  const room = world.state.range.resources.get(session.resource_id);
  if (!rangeClass || room?.status !== 'active') {
    throw apiError('INVALID_RESOURCE', 'This class is no longer offered', {
      class_id: session.class_id,
    });
  }
  if (session.status !== 'scheduled' || Date.parse(session.starts_at) <= world.clock.nowMs()) {
    throw apiError('INVALID_SESSION', 'This class session is not open for booking', {
      status: session.status,
    });
  }
  if (booking.partySize > session.capacity) {
    throw constraint(`A party of ${booking.partySize} exceeds the class capacity of ${session.capacity}`, {
      capacity: session.capacity,
    });
  }
  const customer = booking.guest.existing;
  if (
    customer?.date_of_birth &&
    ageOn(customer.date_of_birth, Date.parse(session.starts_at)) < rangeClass.min_age
  ) {
    throw constraint(`${rangeClass.name} requires a minimum age of ${rangeClass.min_age}`, {
      min_age: rangeClass.min_age,
    });
  }
  if (booking.partySize > session.seats_left) {
    throw apiError('SESSION_FULL', `Only ${session.seats_left} seats left`, {
      seats_left: session.seats_left,
    });
  }
  return finish(
    world,
    booking,
    {
      locationId: session.location_id,
      classSessionId: session.id,
      startsAt: session.starts_at,
      endsAt: session.ends_at,
    },
    [
      {
        kind: 'resource',
        resource_id: session.resource_id,
        product_id: rangeClass.product_id,
        description: `${rangeClass.name}, ${session.starts_at.slice(0, 10)}`,
        quantity: booking.partySize,
        unit_cents: session.price_cents,
        total_cents: session.price_cents * booking.partySize,
      },
    ],
    null,
  );
}
