import type { SandboxCore } from '../core.js';
import { apiError, notFound, type SandboxApiError, validationError } from '../errors.js';
import { canSeeLocation, defaultLocationId, requireWritableLocation } from '../http/access.js';
import type { FieldReader } from '../http/fields.js';
import type { RouteContext } from '../http/route.js';
import type { RangeReservationRecord, ReservationLine } from '../state/range.js';
import type { CustomerRecord } from '../state/shop.js';
import { ageOn, lanePrice, MAX_LANE_BOOKING_MS, outOfService, resourceBusy } from './range-rules.js';
import { insertReservation, sendConfirmation } from './reservations.js';

/** Who the booking is for, read from the body before anything changes. */
interface Guest {
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

function readContact(reader: FieldReader): Guest['contact'] {
  const contact = reader.object('contact');
  return {
    name: contact?.string('name'),
    email: contact?.string('email'),
    phone: contact?.string('phone'),
  };
}

/** Reads customer_id / customer / contact; an unknown customer_id is 400 (reference section 4). */
export function readGuest(core: SandboxCore, reader: FieldReader): Guest {
  const customerId = reader.integer('customer_id');
  const customer = reader.object('customer');
  const contact = readContact(reader);
  let existing: CustomerRecord | null = null;
  let create: Guest['create'] = null;
  if (customerId !== undefined) {
    existing = core.state.shop.customers.get(customerId) ?? null;
    if (!existing) reader.fail('customer_id', 'is not a customer of this shop');
  } else if (customer) {
    const email = customer.string('email', { required: true });
    const first = customer.string('first_name');
    const last = customer.string('last_name');
    const phone = customer.string('phone');
    const match = email
      ? core.state.shop.customers.find((row) => row.email.toLowerCase() === email.toLowerCase())
      : undefined;
    if (match) existing = match;
    else if (email) {
      if (!first) customer.fail('first_name', 'is required for a new customer');
      if (!last) customer.fail('last_name', 'is required for a new customer');
      if (first && last) create = { email, first_name: first, last_name: last, phone: phone ?? null };
    }
  } else if (!contact.name && !contact.email) {
    reader.fail('contact', 'is required when neither customer_id nor customer is given');
  }
  return { existing, create, contact };
}

/** Creates the guest's customer record if the booking brought a new one (customer.created). */
function resolveCustomer(core: SandboxCore, guest: Guest): CustomerRecord | null {
  if (guest.existing) return guest.existing;
  if (!guest.create) return null;
  const now = core.clock.iso();
  const customer = core.state.shop.customers.insert((id) => ({
    object: 'customer',
    id,
    ...guest.create!,
    date_of_birth: null,
    created_at: now,
    updated_at: now,
  }));
  core.events.record('customer.created', customer);
  return customer;
}

function finish(
  core: SandboxCore,
  booking: CommonBooking,
  fields: { locationId: number; classSessionId: number | null; startsAt: string; endsAt: string },
  lines: ReservationLine[],
  notes: string | null,
): RangeReservationRecord {
  const customer = resolveCustomer(core, booking.guest);
  const reservation = insertReservation(core, {
    ...fields,
    source: 'api',
    partySize: booking.partySize,
    customer,
    contact: booking.guest.contact,
    lines,
    paid: booking.paid,
    amountCents: booking.amountCents,
    createdAt: core.clock.iso(),
  });
  core.state.range.bookingExtras.set(reservation.id, {
    notes,
    external_reference: booking.externalReference,
  });
  sendConfirmation(core, reservation);
  core.events.record('range.reservation.booked', reservation);
  return reservation;
}

function constraint(message: string, details: Record<string, unknown> = {}): SandboxApiError {
  return apiError('CONSTRAINT_VIOLATION', message, details);
}

/** Lane mode: every resource free for the whole window, at one location the key can see. */
export function bookLanes(
  context: RouteContext,
  booking: CommonBooking,
  input: {
    resourceIds: number[];
    startsAt: number;
    endsAt: number;
    locationId: number | undefined;
    notes: string | null;
  },
): RangeReservationRecord {
  const { sandbox: core } = context;
  if (input.startsAt < core.clock.nowMs()) throw validationError({ starts_at: ['must not be in the past'] });
  const locationId = input.locationId ?? defaultLocationId(context);
  requireWritableLocation(context, locationId);
  const resources = [...new Set(input.resourceIds)].map((id) => {
    const resource = core.state.range.resources.get(id);
    if (!resource || !canSeeLocation(context.key, resource.location_id)) throw notFound('range resource');
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
    if (outOfService(resource) || resourceBusy(core.state.range, resource.id, input.startsAt, input.endsAt)) {
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
  return finish(core, booking, { locationId, classSessionId: null, ...window }, lines, input.notes);
}

/** Class mode: seats in an open session; the session's time and price apply. */
export function bookSession(
  context: RouteContext,
  booking: CommonBooking,
  sessionId: number,
): RangeReservationRecord {
  const { sandbox: core } = context;
  const session = core.state.range.sessions.get(sessionId);
  if (!session || !canSeeLocation(context.key, session.location_id)) throw notFound('class session');
  const rangeClass = core.state.range.classes.get(session.class_id);
  const room = core.state.range.resources.get(session.resource_id);
  if (!rangeClass || room?.status !== 'active') {
    throw apiError('INVALID_RESOURCE', 'This class is no longer offered', {
      class_id: session.class_id,
    });
  }
  if (session.status !== 'scheduled' || Date.parse(session.starts_at) <= core.clock.nowMs()) {
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
    core,
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
