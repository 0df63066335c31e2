import { notFound } from '../errors.js';
import type { DomainWorld } from './world.js';

/**
 * Who acts, as domain code sees it: the locations the acting API key is limited to (null: every
 * location). A plain value; the routes build it from the request's key, so domain code never sees HTTP.
 */
export interface Actor {
  readonly locations: ReadonlySet<number> | null;
}

/** Whether an actor limited to certain locations may see a record at `locationId` (null: shop-wide). */
export function canSeeLocation(actor: Actor, locationId: number | null | undefined): boolean {
  return (
    actor.locations === null ||
    locationId === null ||
    locationId === undefined ||
    actor.locations.has(locationId)
  );
}

/**
 * A write naming a location must name one the actor can see and the shop has; refused as 404 NOT_FOUND,
 * as the reference answers a booking "at a location the key cannot see".
 */
export function requireWritableLocation(world: DomainWorld, actor: Actor, locationId: number): void {
  if (!world.state.shop.locations.get(locationId) || !canSeeLocation(actor, locationId)) {
    throw notFound('location');
  }
}

/** The actor's only location if it is limited to one, else the shop's main location. */
export function defaultLocationId(world: DomainWorld, actor: Actor): number {
  const only = actor.locations?.size === 1 ? [...actor.locations][0] : undefined;
  return only ?? world.state.shop.mainLocationId;
}
