import { FieldReader, pathId } from '../../../http/fields.js';
import { listRoute } from '../../../http/list.js';
import { routeFor } from '../../../http/operations.js';
import { ok, type RouteDefinition } from '../../../http/route.js';
import type { LocationRecord } from '../../../state/shop.js';
import { findLocation, refuseUnwritableLocationFields, updateLocation } from '../locations.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const render = (row: LocationRecord): LocationRecord => ({ ...row });

/** GET /v1/locations and PATCH /v1/locations/{id}. */
export const locationRoutes: readonly RouteDefinition[] = [
  listRoute<LocationRecord>('locations.list', {
    rows: (sandbox) => sandbox.state.shop.locations,
    location: (row) => row.id,
    render: (row) => render(row),
  }),
  {
    ...routeFor('locations.update'),
    handle: (context) => {
      const { sandbox, body } = context;
      const location = findLocation(sandbox, context.key, pathId(context.params, 'location'));
      refuseUnwritableLocationFields(Object.keys(body));
      const reader = FieldReader.body(body);
      const phone = reader.string('phone');
      const email = reader.string('email');
      // The format of business_hours is not shown; the sandbox keeps it as text, as its locations show it.
      const hours = reader.string('business_hours');
      if (email !== undefined && !EMAIL.test(email)) reader.fail('email', 'must be an email address');
      if (phone === undefined && email === undefined && hours === undefined) {
        reader.fail('body', 'send at least one of phone, email, business_hours');
      }
      reader.done();
      return ok(render(updateLocation(sandbox, location, { phone, email, business_hours: hours })));
    },
  },
];
