import { defaultLocationId, requireWritableLocation } from '../../../http/access.js';
import type { RouteDefinition } from '../../../http/route.js';
import { ok } from '../../../http/route.js';
import { queryRoute } from '../../../http/rules.js';
import { availability } from '../availability.js';

/**
 * GET /v1/range/availability: resources free for the whole window, priced for the party. A snapshot;
 * booking checks again. Not cursor-paginated: meta is {count}.
 */
export const rangeAvailabilityRoutes: readonly RouteDefinition[] = [
  // A party is at least one person (the server's rule; the spec defaults party_size to 1).
  queryRoute('range.availability.list', { party_size: { minimum: 1 } }, (context, query, fields) => {
    const { starts_at: startsAt, ends_at: endsAt } = query;
    if (startsAt !== undefined && endsAt !== undefined && endsAt <= startsAt) {
      fields.fail('ends_at', 'must be after starts_at');
    }
    fields.done();
    const locationId = query.location_id ?? defaultLocationId(context);
    requireWritableLocation(context, locationId);
    const data = availability(context.sandbox, {
      locationId,
      type: query.type ?? 'lane',
      partySize: query.party_size ?? 1,
      laneTypes: query.lane_type,
      from: startsAt!,
      to: endsAt!,
    });
    return ok(data, { count: data.length });
  }),
];
