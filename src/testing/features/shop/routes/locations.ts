import { pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { ok, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute } from '../../../http/rules.js';
import type { LocationRecord } from '../../../state/shop.js';
import { findLocation, refuseUnwritableLocationFields, updateLocation } from '../locations.js';

const render = (row: LocationRecord): LocationRecord => ({ ...row });

/** GET /v1/locations and PATCH /v1/locations/{id}. */
export const locationRoutes: readonly RouteDefinition[] = [
  listRoute<LocationRecord>('locations.list', {
    rows: (sandbox) => sandbox.state.shop.locations,
    location: (row) => row.id,
    render: (row) => render(row),
  }),
  bodyRoute(
    'locations.update',
    // The format of business_hours is not shown; the sandbox keeps it as text, as its locations show it.
    { business_hours: { type: 'string' } },
    (context, body, fields) => {
      const { sandbox } = context;
      const location = findLocation(sandbox, context.key, pathId(context.params, 'location'));
      refuseUnwritableLocationFields(fields.undescribed());
      const { phone, email, business_hours } = body;
      if (!fields.has('phone') && !fields.has('email') && !fields.has('business_hours')) {
        fields.fail('body', 'send at least one of phone, email, business_hours');
      }
      fields.done();
      return ok(render(updateLocation(sandbox, location, { phone, email, business_hours })));
    },
  ),
];
