import { lanePrice, MAX_LANE_BOOKING_MS, outOfService, resourceBusy } from '../domain/range-rules.js';
import { defaultLocationId, requireWritableLocation } from '../http/access.js';
import { FieldReader } from '../http/fields.js';
import { routeFor } from '../http/operations.js';
import { ok, type RouteDefinition } from '../http/route.js';

/**
 * GET /v1/range/availability: resources free for the whole window, priced for the party. A snapshot;
 * booking checks again. Not cursor-paginated: meta is {count}.
 */
export const rangeAvailabilityRoutes: readonly RouteDefinition[] = [
  {
    ...routeFor('range.availability.list'),
    handle: (context) => {
      const { sandbox, query } = context;
      const reader = FieldReader.query(query);
      const startsAt = reader.dateTime('starts_at', { required: true });
      const endsAt = reader.dateTime('ends_at', { required: true });
      const locationId = reader.integer('location_id') ?? defaultLocationId(context);
      const type = reader.string('type') ?? 'lane';
      const partySize = reader.integer('party_size', { min: 1 }) ?? 1;
      const laneTypes = reader.stringList('lane_type');
      if (startsAt !== undefined && endsAt !== undefined && endsAt <= startsAt) {
        reader.fail('ends_at', 'must be after starts_at');
      }
      reader.done();
      requireWritableLocation(context, locationId);
      const from = startsAt!;
      const to = endsAt!;
      const tooLong = to - from > MAX_LANE_BOOKING_MS;
      const data = sandbox.state.range.resources
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
            from >= sandbox.clock.nowMs() &&
            !resourceBusy(sandbox.state.range, resource.id, from, to),
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
      return ok(data, { count: data.length });
    },
  },
];
