import type { DomainWorld } from '../world.js';
import { lanePrice, MAX_LANE_BOOKING_MS, outOfService, resourceBusy } from './rules.js';

/** What an availability search asks: a window (epoch ms), a location, a resource type, a party, lane types. */
export interface AvailabilityQuery {
  readonly locationId: number;
  readonly type: string;
  readonly partySize: number;
  readonly laneTypes: readonly string[] | undefined;
  readonly from: number;
  readonly to: number;
}

/**
 * The resources free for the whole window, priced for the party, in the range's sort order (none for a
 * window longer than a lane booking may be, or one that has begun). A snapshot: booking checks again.
 */
export function availability(world: DomainWorld, query: AvailabilityQuery) {
  const { locationId, type, partySize, laneTypes, from, to } = query;
  const tooLong = to - from > MAX_LANE_BOOKING_MS;
  return world.state.range.resources
    .filter(
      (resource) =>
        resource.location_id === locationId &&
        resource.type === type &&
        resource.booking_mode === 'exclusive' &&
        resource.status === 'active' &&
        !outOfService(resource) &&
        resource.capacity >= partySize &&
        (laneTypes === undefined ||
          (resource.lane_type !== null && laneTypes.includes(resource.lane_type))) &&
        !tooLong &&
        from >= world.clock.nowMs() &&
        !resourceBusy(world.state.range, resource.id, from, to),
    )
    .sort((a, b) => a.sort_order - b.sort_order)
    .map((resource) => ({
      object: 'range_availability',
      resource,
      price_cents: lanePrice(resource, partySize, from, to),
      starts_at: new Date(from).toISOString(),
      ends_at: new Date(to).toISOString(),
      party_size: partySize,
    }));
}
