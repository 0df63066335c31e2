import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { CouponsCreateParams, CouponsUpdateParams } from '../generated/params.js';
import type { Coupon, DeletedObject } from '../generated/schemas.js';

/**
 * `shop.coupons`: discount codes. Named only in the reference: fields beyond `code`, `channel` and
 * `location_id` are not shown (typed loosely; other fields are passed through).
 */
export class Coupons extends APIResource {
  /**
   * Creates a coupon. `location_id` null means every location; a location coupon is refused at other
   * locations' registers and, with channel `store_online`, published only to that location's storefront.
   *
   * The request fields beyond `code`, `channel` and `location_id`, and the response shape, are not shown in
   * the reference: other fields are passed through as given, and the coupon is typed loosely.
   *
   * Permission: `coupons:write`.
   * Errors: 409 `CODE_TAKEN`, 400 `VALIDATION_ERROR` (also a store_online coupon for a location without a
   * storefront), 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * const coupon = await shop.coupons.create({ code: 'FALL10', channel: 'store_online', location_id: null });
   */
  create(params: CouponsCreateParams, options?: RequestOptions): APIPromise<Coupon> {
    return this._client.request(operations['coupons.create'], { body: params }, options);
  }

  /**
   * Changes a coupon; the same code and location rules as create apply. Named only in the reference:
   * request and response shapes are not shown. `code`, `channel` and `location_id` are typed as on create,
   * other fields are passed through as given, and the coupon is typed loosely.
   *
   * Permission: `coupons:write`.
   * Errors: 409 `CODE_TAKEN`, 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`.
   * @example
   * await shop.coupons.update(15, { location_id: 3 });
   */
  update(id: number, params: CouponsUpdateParams, options?: RequestOptions): APIPromise<Coupon> {
    return this._client.request(operations['coupons.update'], { path: { id }, body: params }, options);
  }

  /**
   * Deletes a coupon. The response is not shown in the reference; a body is typed like the coupon.deleted
   * payload, and an answer with no body (204 No Content) resolves to `{ id, deleted: true }` with the `id`
   * passed here.
   *
   * A DELETE is retried like a GET (deleting twice leaves the same state), so when the first answer is lost
   * (a timeout, a reset connection) the retry may find the coupon gone and raise `NotFoundError` (404):
   * after a call that may have been retried, take a 404 as already deleted.
   *
   * Permission: `coupons:write`.
   * Errors: 404 `NOT_FOUND`.
   * @example
   * await shop.coupons.delete(15);
   */
  delete(id: number, options?: RequestOptions): APIPromise<DeletedObject> {
    return this._client.request(operations['coupons.delete'], { path: { id } }, options);
  }
}
