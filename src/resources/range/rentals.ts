import type { APIPromise } from '../../core/api-promise.js';
import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type { RangeRentalsListParams } from '../../generated/params.js';
import type { RangeRental, RangeRentalDetail } from '../../generated/schemas.js';

/**
 * `shop.range.rentals`: the rental-gun fleet, read only (guns are rented and returned at the register,
 * never through the API; serial numbers are readable, never writable).
 */
export class Rentals extends APIResource {
  /**
   * Lists the rental guns, oldest first. `checkout` is the open checkout while a gun is out; list items
   * carry no history (retrieve one gun for `recent_checkouts`).
   *
   * Permission: `range:read`.
   * Errors: 400 `VALIDATION_ERROR` (a status other than available, checked_out, maintenance, retired;
   * bad cursor), 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * for await (const gun of shop.range.rentals.list({ status: 'maintenance' })) {
   *   console.log(gun.tag, gun.out_of_service_reason);
   * }
   */
  list(params?: RangeRentalsListParams, options?: RequestOptions): PagePromise<RangeRental> {
    return this._client.list(operations['range.rentals.list'], { query: params }, options);
  }

  /**
   * Reads one rental gun with `recent_checkouts`, its last 20 checkouts, newest first.
   *
   * Permission: `range:read`.
   * Errors: 404 `NOT_FOUND`, 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * const gun = await shop.range.rentals.retrieve(77);
   * for (const c of gun.recent_checkouts) console.log(c.checked_out_at, c.condition_in, c.rounds_fired);
   */
  retrieve(id: number, options?: RequestOptions): APIPromise<RangeRentalDetail> {
    return this._client.request(operations['range.rentals.retrieve'], { path: { id } }, options);
  }
}
