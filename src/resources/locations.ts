import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { LocationsListParams, LocationsUpdateParams } from '../generated/params.js';
import type { Location } from '../generated/schemas.js';

/** `shop.locations`: the shop's stores. */
export class Locations extends APIResource {
  /**
   * Lists the locations the key can see. The reference shows this endpoint only in part: request filters
   * beyond `limit` and `cursor` are not shown (others are passed through as given, not refused), and the
   * response's location fields beyond those the reference names are not shown (typed loosely; every field
   * the server sends is kept).
   *
   * Permission: `locations:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad cursor).
   * @example
   * const stores = await shop.locations.list().toArray();
   */
  list(params?: LocationsListParams, options?: RequestOptions): PagePromise<Location> {
    return this._client.list(operations['locations.list'], { query: params }, options);
  }

  /**
   * Changes a location's `phone`, `email` or `business_hours`; no other field is writable. The format of
   * `business_hours` and the response shape are not shown in the reference (typed loosely).
   *
   * Permission: `locations:write`.
   * Errors: 409 `FIELD_NOT_WRITABLE` (`details.fields` names the refused fields), 404 `NOT_FOUND`,
   * 400 `VALIDATION_ERROR`.
   * @example
   * await shop.locations.update(3, { phone: '+1-555-0199' });
   */
  update(id: number, params: LocationsUpdateParams, options?: RequestOptions): APIPromise<Location> {
    return this._client.request(operations['locations.update'], { path: { id }, body: params }, options);
  }
}
