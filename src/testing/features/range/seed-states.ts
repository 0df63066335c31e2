import { DAY_MS, HOUR_MS, type SeedContext } from '../seed-context.js';
import { insertReservation } from './reservations.js';
import { lanePrice } from './rules.js';

/**
 * The states the API never produces and whose transitions the reference does not show: a hold (a widget
 * cart not yet confirmed), a released hold and a visit in progress. Fixed values, no random draws, so the
 * records seeded before and after them stay what they were.
 */
const OTHER_STATES: readonly {
  readonly status: 'held' | 'released' | 'in_progress';
  readonly day: number;
  readonly offset: number;
  readonly hours: number;
  readonly laneId: number;
  readonly customerId: number;
  readonly party: number;
  readonly createdMinutesAgo: number;
}[] = [
  // On location 2's second rifle lane tomorrow: the lane is taken while the hold lasts.
  { status: 'held', day: 1, offset: 3, hours: 1, laneId: 19, customerId: 7, party: 2, createdMinutesAgo: 5 },
  // A hold on Rifle Lane 4 later today that was let go: the lane is free again.
  {
    status: 'released',
    day: 0,
    offset: 4,
    hours: 1,
    laneId: 4,
    customerId: 8,
    party: 1,
    createdMinutesAgo: 26 * 60,
  },
  // A party shooting right now on location 2's first pistol lane.
  {
    status: 'in_progress',
    day: 0,
    offset: 0,
    hours: 2,
    laneId: 14,
    customerId: 9,
    party: 2,
    createdMinutesAgo: 3 * 24 * 60,
  },
];

/** Seeds the reservations of OTHER_STATES (after the lane bookings, so earlier ids stay put). */
export function seedOtherStates(context: SeedContext): void {
  const { world } = context;
  const { range, shop } = world.state;
  const hour = context.nowMs - (context.nowMs % HOUR_MS);
  for (const seed of OTHER_STATES) {
    const lane = range.resources.get(seed.laneId)!;
    const startsAt = hour + seed.day * DAY_MS + seed.offset * HOUR_MS;
    const endsAt = startsAt + seed.hours * HOUR_MS;
    const price = lanePrice(lane, seed.party, startsAt, endsAt);
    const createdAt = new Date(context.nowMs - seed.createdMinutesAgo * 60_000).toISOString();
    const reservation = insertReservation(world, {
      locationId: lane.location_id,
      classSessionId: null,
      source: seed.status === 'in_progress' ? 'walk_up' : 'hosted',
      partySize: seed.party,
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
      customer: shop.customers.get(seed.customerId)!,
      // A hold is not paid yet; the walk-up party paid at the desk when it checked in.
      paid: seed.status === 'in_progress',
      // held and released were never confirmed (confirmed_at null).
      status: seed.status === 'in_progress' ? 'booked' : 'held',
      lines: [
        {
          kind: 'lane_time',
          resource_id: lane.id,
          product_id: null,
          description: `${lane.name}, ${seed.hours * 60} min, party of ${seed.party}`,
          quantity: 1,
          unit_cents: price,
          total_cents: price,
        },
      ],
      createdAt,
    });
    const at = (ms: number) => new Date(ms).toISOString();
    if (seed.status === 'released') {
      Object.assign(reservation, { status: 'released', updated_at: at(context.nowMs - 25 * HOUR_MS) });
    }
    if (seed.status === 'in_progress') {
      Object.assign(reservation, {
        status: 'in_progress',
        checked_in_at: at(startsAt - 300_000),
        updated_at: at(startsAt),
      });
    }
  }
}
