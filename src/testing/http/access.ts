import { notFound } from '../errors.js';
import type { Table } from '../state/table.js';
import { type ApiKey, hasPermission } from './keys.js';
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

/** Who is looking at a payload: decides whether customers stay whole and dates of birth stay in. */
export interface PayloadViewer {
  readonly fullCustomers: boolean;
  readonly dateOfBirth: boolean;
}

/** What an API key may see of embedded customers (reference section 5, rule 9). */
export function viewerForKey(key: ApiKey): PayloadViewer {
  return {
    fullCustomers: hasPermission(key, 'customers:read'),
    dateOfBirth: hasPermission(key, 'customer_dob:read'),
  };
}

/**
 * A deep copy of `payload` as `viewer` may see it: a customer embedded below the top level is reduced to
 * {object, id} without customers:read, and date_of_birth is removed everywhere without the dob right.
 * Copying also keeps callers from mutating stored records.
 */
export function redactPayload<T>(payload: T, viewer: PayloadViewer): T {
  return redact(payload, viewer, 0) as T;
}

function redact(value: unknown, viewer: PayloadViewer, depth: number): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item, viewer, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (depth > 0 && record.object === 'customer' && !viewer.fullCustomers) {
    return { object: 'customer', id: record.id };
  }
  const copy: Record<string, unknown> = {};
  for (const [field, fieldValue] of Object.entries(record)) {
    if (field === 'date_of_birth' && !viewer.dateOfBirth) continue;
    copy[field] = redact(fieldValue, viewer, depth + 1);
  }
  return copy;
}
