import { notFound } from '../errors.js';
import {
  defaultLocationId as actorDefaultLocation,
  canSeeLocation,
  requireWritableLocation as requireActorLocation,
} from '../features/actor.js';
import type { Table } from '../state/table.js';
import type { RouteContext } from './route.js';

export { canSeeLocation };

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

/** `requireWritableLocation` of features/actor.ts for the request's key. */
export function requireWritableLocation(context: RouteContext, locationId: number): void {
  requireActorLocation(context.sandbox, context.key, locationId);
}

/** `defaultLocationId` of features/actor.ts for the request's key. */
export function defaultLocationId(context: RouteContext): number {
  return actorDefaultLocation(context.sandbox, context.key);
}
