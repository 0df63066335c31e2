import { apiError, notFound } from '../../errors.js';
import type { LocationRecord } from '../../state/shop.js';
import { touch } from '../../state/stamps.js';
import { type Actor, canSeeLocation } from '../actor.js';
import type { DomainWorld } from '../world.js';

/** The only fields a location's API update may change (reference section 4). */
export const WRITABLE_LOCATION_FIELDS = ['phone', 'email', 'business_hours'] as const;

/** What an update may change; undefined: left as it is. */
export type LocationChanges = Partial<Record<(typeof WRITABLE_LOCATION_FIELDS)[number], string>>;

/** The location, or 404 NOT_FOUND when it does not exist or the actor cannot see it. */
export function findLocation(world: DomainWorld, actor: Actor, id: number): LocationRecord {
  const location = world.state.shop.locations.get(id);
  if (!location || !canSeeLocation(actor, location.id)) throw notFound('location');
  return location;
}

/** 422 FIELD_NOT_WRITABLE naming every field sent that an update may not change. */
export function refuseUnwritableLocationFields(fields: readonly string[]): void {
  const refused = fields.filter((field) => !(WRITABLE_LOCATION_FIELDS as readonly string[]).includes(field));
  if (refused.length > 0) {
    throw apiError(
      'FIELD_NOT_WRITABLE',
      `Only phone, email and business_hours can change: ${refused.join(', ')} cannot`,
      { fields: refused },
    );
  }
}

/** Applies the changes; only a real change stamps the location and fires location.updated. */
export function updateLocation(
  world: DomainWorld,
  location: LocationRecord,
  changes: LocationChanges,
): LocationRecord {
  const next = {
    phone: changes.phone ?? location.phone,
    email: changes.email ?? location.email,
    business_hours: changes.business_hours ?? location.business_hours,
  };
  const changed = WRITABLE_LOCATION_FIELDS.some((field) => next[field] !== location[field]);
  if (changed) {
    Object.assign(location, next);
    touch(location, world.clock.nowMs());
    world.events.record('location.updated', location, location.id);
  }
  return location;
}
