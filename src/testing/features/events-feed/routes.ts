import { EVENT_RETENTION_MS, type StoredEvent } from '../../events/log.js';
import { redactPayload } from '../../events/payload-view.js';
import { hasPermission } from '../../http/keys.js';
import { listRoute } from '../../http/list.js';
import { viewerForKey } from '../../http/payload-view.js';
import type { RouteDefinition } from '../../http/route.js';

/** GET /v1/events: the 30-day catch-up feed (reference section 4, "Event feed"). */
export const eventRoutes: readonly RouteDefinition[] = [
  // No permission of its own: each event needs read on the resource it carries.
  listRoute<StoredEvent>('events.list', {
    rows: (sandbox) => sandbox.events.all(),
    params: [{ name: 'type', match: (event, type: string) => event.envelope.type === type }],
    changedAt: (event) => event.createdAtMs,
    location: (event) => event.locationId,
    where: ({ sandbox, key }) => {
      const oldest = sandbox.clock.nowMs() - EVENT_RETENTION_MS;
      return (event) =>
        event.createdAtMs >= oldest && (event.permission === null || hasPermission(key, event.permission));
    },
    position: (event) => event.seq,
    render: (event, { key }) => redactPayload(event.envelope, viewerForKey(key)),
  }),
];
