import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type { RangeAvailabilityListParams } from '../../generated/params.js';
import type { RangeAvailability } from '../../generated/schemas.js';

/** `shop.range.availability`: which resources are free for a window. */
export class Availability extends APIResource {
  /**
   * Lists the resources free for the whole window from `starts_at` to `ends_at` (both required), priced
   * for the party. Not paginated: resolves to the array. It is a snapshot; booking checks again.
   *
   * Permission: `range:read`.
   * Errors: 400 `VALIDATION_ERROR` (missing or malformed window), 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * const free = await shop.range.availability.list({
   *   starts_at: '2026-10-01T15:00:00Z',
   *   ends_at: '2026-10-01T16:00:00Z',
   *   party_size: 2,
   *   lane_type: ['rifle', 'pistol'],
   * });
   * const cheapest = free.sort((a, b) => a.price_cents - b.price_cents)[0];
   */
  list(params: RangeAvailabilityListParams, options?: RequestOptions): APIPromise<RangeAvailability[]> {
    return this._client.request(operations['range.availability.list'], { query: params }, options);
  }
}
