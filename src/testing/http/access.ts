import { notFound } from '../errors.js';
import type { Table } from '../state/table.js';
import type { ApiKey } from './keys.js';
import type { RouteContext } from './route.js';

/** Whether a key limited to certain locations may see a record at `locationId` (null: shop-wide). */
export function canSeeLocation(key: ApiKey, locationId: number | null | undefined): boolean {
  return (
    key.locations === null || locationId === null || locationId === undefined || key.locations.has(locationId)
  );
}

/** The record, or 404 NOT_FOUND when it does not exist or sits at a location the key cannot see. */
export function findVisible<T extends { id: number; location_id: number }>(
  context: RouteContext,
  table: Table<T>,
  id: number,
  what: string,
): T {
  const row = table.get(id);
  if (!row || !canSeeLocation(context.key, row.location_id)) throw notFound(what);
  return row;
}

/**
 * A write naming a location must name one the key can see and the shop has; refused as 404 NOT_FOUND,
 * as the reference answers a booking "at a location the key cannot see".
 */
export function requireWritableLocation(context: RouteContext, locationId: number): void {
  if (!context.sandbox.state.shop.locations.get(locationId) || !canSeeLocation(context.key, locationId)) {
    throw notFound('location');
  }
}

/** The key's only location if it is limited to one, else the shop's main location. */
export function defaultLocationId(context: RouteContext): number {
  const only = context.key.locations?.size === 1 ? [...context.key.locations][0] : undefined;
  return only ?? context.sandbox.state.shop.mainLocationId;
}
