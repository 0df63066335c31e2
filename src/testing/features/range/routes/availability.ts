import { defaultLocationId, requireWritableLocation } from '../../../http/access.js';
import { FieldReader } from '../../../http/fields.js';
import { routeFor } from '../../../http/operations.js';
import { ok, type RouteDefinition } from '../../../http/route.js';
import { availability } from '../availability.js';

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
      const data = availability(sandbox, {
        locationId,
        type,
        partySize,
        laneTypes,
        from: startsAt!,
        to: endsAt!,
      });
      return ok(data, { count: data.length });
    },
  },
];
