import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type { RangeRentalCheckoutsListParams } from '../../generated/params.js';
import type { RangeRentalCheckout } from '../../generated/schemas.js';

/** `shop.range.rentalCheckouts`: the custody history of the rental guns. */
export class RentalCheckouts extends APIResource {
  /**
   * Lists rental checkouts (who had which gun, when, in what condition), oldest first. `open: true`
   * gives the guns still out, `open: false` the returned ones.
   *
   * Permission: `range:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor), 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * const out = await shop.range.rentalCheckouts.list({ open: true }).toArray();
   */
  list(params?: RangeRentalCheckoutsListParams, options?: RequestOptions): PagePromise<RangeRentalCheckout> {
    return this._client.list(operations['range.rentalCheckouts.list'], { query: params }, options);
  }
}
