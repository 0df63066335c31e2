import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type { RangeResourcesListParams } from '../../generated/params.js';
import type { RangeResource } from '../../generated/schemas.js';

/** `shop.range.resources`: the range's bookable lanes, bays and instructors. */
export class RangeResources extends APIResource {
  /**
   * Lists the range's resources, oldest first. Only a resource with status `active` can be booked.
   *
   * Permission: `range:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor), 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * const lanes = await shop.range.resources.list({ type: 'lane', location_id: 3 }).toArray();
   */
  list(params?: RangeResourcesListParams, options?: RequestOptions): PagePromise<RangeResource> {
    return this._client.list(operations['range.resources.list'], { query: params }, options);
  }
}
