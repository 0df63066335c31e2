import { EVENT_RETENTION_MS } from '../events/log.js';
import { canSeeLocation } from '../http/access.js';
import { FieldReader } from '../http/fields.js';
import { hasPermission } from '../http/keys.js';
import { paginate, readPageParams } from '../http/pagination.js';
import { redactPayload, viewerForKey } from '../http/payload-view.js';
import type { RouteDefinition } from '../http/route.js';

/** GET /v1/events: the 30-day catch-up feed (reference section 4, "Event feed"). */
export const eventRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/v1/events',
    // No permission of its own: each event needs read on the resource it carries.
    permission: null,
    handle: ({ sandbox, key, query }) => {
      const reader = FieldReader.query(query);
      const type = reader.string('type');
      const since = reader.dateTime('updated_since');
      const page = readPageParams(reader);
      reader.done();
      const oldest = sandbox.clock.nowMs() - EVENT_RETENTION_MS;
      const rows = sandbox.events
        .all()
        .filter(
          (event) =>
            event.createdAtMs >= oldest &&
            (since === undefined || event.createdAtMs >= since) &&
            (type === undefined || event.envelope.type === type) &&
            (event.permission === null || hasPermission(key, event.permission)) &&
            canSeeLocation(key, event.locationId),
        );
      const viewer = viewerForKey(key);
      return paginate(
        rows,
        page,
        (event) => event.seq,
        (event) => redactPayload(event.envelope, viewer),
      );
    },
  },
];
