import type { CustomerRecord } from '../../state/shop.js';
import { CLASS_PRODUCTS } from '../seed-catalog.js';
import { DAY_MS, HOUR_MS, isoAt, type SeedContext } from '../seed-context.js';
import { insertReservation } from './reservations.js';
import { lanePrice } from './rules.js';
import { seedOtherStates } from './seed-states.js';
import type { RangeReservationRecord, RangeResourceRecord, RangeSessionRecord } from './state.js';

type ResourceSeed = Pick<
  RangeResourceRecord,
  'location_id' | 'type' | 'name' | 'capacity' | 'base_price_cents'
> &
  Partial<Pick<RangeResourceRecord, 'booking_mode' | 'status' | 'floor_status' | 'lane_type'>>;

function lanes(locationId: number, laneType: string, count: number, price: number): ResourceSeed[] {
  const label = laneType === 'rifle' ? 'Rifle' : 'Pistol';
  return Array.from({ length: count }, (_, index) => ({
    location_id: locationId,
    type: 'lane',
    name: `${label} Lane ${index + 1}`,
    capacity: 2,
    base_price_cents: price,
    lane_type: laneType,
  }));
}

const RESOURCES: readonly ResourceSeed[] = [
  ...lanes(1, 'rifle', 4, 3000),
  ...lanes(1, 'pistol', 4, 2000),
  // Pistol Lane 5 is active but out of service on the floor; Pistol Lane 6 is not active.
  { ...lanes(1, 'pistol', 5, 2000)[4]!, floor_status: 'out_of_service' },
  { ...lanes(1, 'pistol', 6, 2000)[5]!, status: 'inactive' },
  { location_id: 1, type: 'bay', name: 'Tactical Bay', capacity: 6, base_price_cents: 4500 },
  {
    location_id: 1,
    type: 'instructor',
    name: 'Sam Kessler (private lesson)',
    capacity: 1,
    base_price_cents: 6000,
  },
  {
    location_id: 1,
    type: 'classroom',
    name: 'Classroom A',
    capacity: 16,
    base_price_cents: 0,
    booking_mode: 'session_capacity',
  },
  ...lanes(2, 'pistol', 4, 1800),
  ...lanes(2, 'rifle', 2, 2800),
  {
    location_id: 2,
    type: 'classroom',
    name: 'Classroom B',
    capacity: 12,
    base_price_cents: 0,
    booking_mode: 'session_capacity',
  },
];

interface ClassSeed {
  readonly location: number;
  readonly product: number;
  readonly name: string;
  readonly instructor: string;
  readonly minutes: number;
  readonly capacity: number;
  readonly minAge: number;
  readonly price: number;
  readonly bring: string;
  /** Days from today (UTC) and the UTC hour the sessions start. */
  readonly days: readonly number[];
  readonly hour: number;
}

const CLASSES: readonly ClassSeed[] = [
  {
    location: 1,
    product: CLASS_PRODUCTS.introHandgun,
    name: 'Intro to Handguns',
    instructor: 'Sam Kessler',
    minutes: 180,
    capacity: 12,
    minAge: 18,
    price: 7500,
    bring: 'Eye and ear protection (loaners available). Ammunition is included.',
    days: [1, 6, 11, 16, 21, 26],
    hour: 15,
  },
  {
    location: 1,
    product: CLASS_PRODUCTS.concealedCarry,
    name: 'Concealed Carry Permit Course',
    instructor: 'Dana Whitfield',
    minutes: 480,
    capacity: 16,
    minAge: 21,
    price: 12_500,
    bring: 'Government ID, a holster that covers the trigger guard, 100 rounds.',
    days: [3, 10, 17, 24],
    hour: 14,
  },
  {
    location: 2,
    product: CLASS_PRODUCTS.youthRifle,
    name: 'Youth Rifle Safety',
    instructor: 'Marco Ruiz',
    minutes: 120,
    capacity: 10,
    minAge: 12,
    price: 4500,
    bring: 'A parent or guardian for the whole class.',
    days: [2, 9, 16, 23, 30],
    hour: 16,
  },
  {
    location: 1,
    product: CLASS_PRODUCTS.defensivePistol,
    name: 'Defensive Pistol II',
    instructor: 'Sam Kessler',
    minutes: 240,
    capacity: 8,
    minAge: 21,
    price: 15_000,
    bring: 'Your own pistol, three magazines, 300 rounds.',
    days: [5, 13, 20, 28],
    hour: 15,
  },
];

const SOURCES = ['storefront_widget', 'hosted', 'walk_up', 'pos', 'corporate'];

/** Lanes, bays, an instructor and classrooms; classes with 30 days of sessions; lane and class bookings. */
export function seedRange(context: SeedContext): void {
  const { range } = context.world.state;
  const created = isoAt(context, -300 * DAY_MS);
  for (const [index, seed] of RESOURCES.entries()) {
    range.resources.insert((id) => ({
      object: 'range_resource',
      id,
      location_id: seed.location_id,
      type: seed.type,
      booking_mode: seed.booking_mode ?? 'exclusive',
      name: seed.name,
      capacity: seed.capacity,
      base_price_cents: seed.base_price_cents,
      floor_status: seed.floor_status ?? 'idle',
      status: seed.status ?? 'active',
      sort_order: index + 1,
      lane_type: seed.lane_type ?? null,
      updated_at: created,
    }));
  }
  seedClasses(context, created);
  seedClassBookings(context);
  seedLaneBookings(context);
  seedOtherStates(context);
}

function startOfDay(context: SeedContext): number {
  return context.nowMs - (context.nowMs % DAY_MS);
}

function seedClasses(context: SeedContext, created: string): void {
  const { range } = context.world.state;
  const midnight = startOfDay(context);
  for (const seed of CLASSES) {
    const rangeClass = range.classes.insert((id) => ({
      object: 'range_class',
      id,
      location_id: seed.location,
      product_id: seed.product,
      name: seed.name,
      instructor_name: seed.instructor,
      duration_minutes: seed.minutes,
      default_capacity: seed.capacity,
      min_age: seed.minAge,
      prerequisites: null,
      what_to_bring: seed.bring,
      updated_at: created,
    }));
    const room = range.resources.find(
      (resource) => resource.location_id === seed.location && resource.booking_mode === 'session_capacity',
    )!;
    for (const day of seed.days) {
      const startsAt = midnight + day * DAY_MS + seed.hour * HOUR_MS;
      range.sessions.insert((id) => ({
        object: 'range_class_session',
        id,
        class_id: rangeClass.id,
        location_id: seed.location,
        resource_id: room.id,
        starts_at: new Date(startsAt).toISOString(),
        ends_at: new Date(startsAt + seed.minutes * 60_000).toISOString(),
        capacity: seed.capacity,
        seats_booked: 0,
        seats_left: seed.capacity,
        price_cents: seed.price,
        status: 'scheduled',
        updated_at: created,
      }));
    }
  }
  // Not open for booking: the sandbox marks it cancelled (the reference shows only scheduled).
  range.sessions.filter((session) => session.class_id === 2).at(-1)!.status = 'cancelled';
}

function seedClassBookings(context: SeedContext): void {
  const { world } = context;
  const { range, shop } = world.state;
  const fullSession = range.sessions.find((session) => session.class_id === 4)!;
  for (const session of range.sessions.all()) {
    if (session.status !== 'scheduled') continue;
    const target = session === fullSession ? session.capacity : world.random.int(1, session.capacity - 3);
    let seats = 0;
    while (seats < target) {
      const party = Math.min(target - seats, world.random.int(1, 2));
      seats += party;
      bookSeats(context, session, party, shop.customers.get(world.random.int(1, 13))!);
    }
  }
}

function bookSeats(
  context: SeedContext,
  session: RangeSessionRecord,
  party: number,
  customer: CustomerRecord,
): void {
  const rangeClass = context.world.state.range.classes.get(session.class_id)!;
  insertReservation(context.world, {
    locationId: session.location_id,
    classSessionId: session.id,
    source: context.world.random.pick(SOURCES),
    partySize: party,
    startsAt: session.starts_at,
    endsAt: session.ends_at,
    customer,
    paid: true,
    lines: [
      {
        kind: 'resource',
        resource_id: session.resource_id,
        product_id: rangeClass.product_id,
        description: `${rangeClass.name}, ${session.starts_at.slice(0, 10)}`,
        quantity: party,
        unit_cents: session.price_cents,
        total_cents: session.price_cents * party,
      },
    ],
    createdAt: isoAt(context, -context.world.random.int(1, 20) * DAY_MS),
  });
}

/** [day offset, start hour offset from now rounded down to the hour, hours, lane id, final status]. */
const LANE_BOOKINGS: readonly (readonly [number, number, number, number, string])[] = [
  [-9, 2, 1, 1, 'completed'],
  [-6, 4, 2, 2, 'completed'],
  [-4, 1, 1, 5, 'no_show'],
  [-2, 3, 1, 6, 'completed'],
  [-1, 5, 1, 1, 'cancelled'],
  [0, -1, 2, 2, 'checked_in'],
  [0, 2, 1, 3, 'booked'],
  [0, 3, 1, 6, 'booked'],
  [1, 1, 2, 1, 'booked'],
  [2, 4, 1, 7, 'booked'],
  [3, 2, 1, 11, 'booked'],
  [5, 0, 2, 15, 'booked'],
];

function seedLaneBookings(context: SeedContext): void {
  const { world } = context;
  const { range, shop } = world.state;
  const hour = context.nowMs - (context.nowMs % HOUR_MS);
  for (const [day, offset, hours, laneId, status] of LANE_BOOKINGS) {
    const lane = range.resources.get(laneId)!;
    const startsAt = hour + day * DAY_MS + offset * HOUR_MS;
    const endsAt = startsAt + hours * HOUR_MS;
    const party = world.random.int(1, lane.capacity);
    const price = lanePrice(lane, party, startsAt, endsAt);
    const source = world.random.pick(SOURCES);
    const reservation = insertReservation(world, {
      locationId: lane.location_id,
      classSessionId: null,
      source,
      partySize: party,
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
      customer: shop.customers.get(world.random.int(1, 13))!,
      paid: source !== 'walk_up',
      lines: [
        {
          kind: 'lane_time',
          resource_id: lane.id,
          product_id: null,
          description: `${lane.name}, ${hours * 60} min, party of ${party}`,
          quantity: 1,
          unit_cents: price,
          total_cents: price,
        },
      ],
      createdAt: new Date(Math.min(startsAt, context.nowMs) - world.random.int(1, 5) * DAY_MS).toISOString(),
    });
    applyOutcome(reservation, status, startsAt, endsAt);
  }
}

function applyOutcome(
  reservation: RangeReservationRecord,
  status: string,
  startsAt: number,
  endsAt: number,
): void {
  const at = (ms: number) => new Date(ms).toISOString();
  if (status === 'booked') return;
  if (status === 'checked_in') Object.assign(reservation, { status, checked_in_at: at(startsAt - 600_000) });
  if (status === 'completed') {
    Object.assign(reservation, { status, checked_in_at: at(startsAt - 600_000), completed_at: at(endsAt) });
  }
  if (status === 'no_show') Object.assign(reservation, { status, no_show_at: at(startsAt + 1_800_000) });
  if (status === 'cancelled') {
    Object.assign(reservation, {
      status,
      cancelled_at: at(startsAt - DAY_MS),
      cancel_reason: 'Guest called to cancel',
    });
  }
  reservation.updated_at = at(Math.max(startsAt, Date.parse(reservation.created_at)));
}
