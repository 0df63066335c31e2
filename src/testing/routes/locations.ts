import { touch } from '../domain/stamps.js';
import { apiError, notFound } from '../errors.js';
import { canSeeLocation } from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import { listRoute } from '../http/list.js';
import { routeFor } from '../http/operations.js';
import { ok, type RouteDefinition } from '../http/route.js';
import type { LocationRecord } from '../state/shop.js';

/** The only fields PATCH /v1/locations/{id} may change (reference section 4). */
const WRITABLE = ['phone', 'email', 'business_hours'] as const;
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
      const location = sandbox.state.shop.locations.get(pathId(context.params, 'location'));
      if (!location || !canSeeLocation(context.key, location.id)) throw notFound('location');
      const refused = Object.keys(body).filter((field) => !(WRITABLE as readonly string[]).includes(field));
      if (refused.length > 0) {
        throw apiError(
          'FIELD_NOT_WRITABLE',
          `Only phone, email and business_hours can change: ${refused.join(', ')} cannot`,
          { fields: refused },
        );
      }
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
      const next = {
        phone: phone ?? location.phone,
        email: email ?? location.email,
        business_hours: hours ?? location.business_hours,
      };
      const changed = WRITABLE.some((field) => next[field] !== location[field]);
      if (changed) {
        Object.assign(location, next);
        touch(location, sandbox.clock.nowMs());
        sandbox.events.record('location.updated', location, location.id);
      }
      return ok(render(location));
    },
  },
];
