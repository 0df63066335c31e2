import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { OrdersCreateParams } from '../generated/params.js';
import type { Order } from '../generated/schemas.js';

/** `shop.orders`: orders from outside channels. */
export class Orders extends APIResource {
  /**
   * Creates an order from an outside channel. `external_reference` gives natural idempotency: sending it
   * again returns the same order, and it collides only with a non-API order. Request fields beyond
   * `external_reference` and the response shape are not shown in the reference (typed loosely).
   *
   * Permission: `orders:write`.
   * Errors: 409 `EXTERNAL_REFERENCE_TAKEN`, 409 `INSUFFICIENT_STOCK` (inferred, not listed by the reference:
   * lines beyond the stock where negative stock is not allowed), 422 `INVALID_REFERENCE` (inferred, not
   * listed by the reference: a product or customer that names no record), 404 `NOT_FOUND` (inferred, not
   * listed by the reference: a location the key cannot see), 400 `VALIDATION_ERROR`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * const order = await shop.orders.create({ external_reference: 'WEB-1001', lines: [{ sku: 'TGT-25', qty: 10 }] });
   */
  create(params: OrdersCreateParams, options?: RequestOptions): APIPromise<Order> {
    return this._client.request(operations['orders.create'], { body: params }, options);
  }

  /**
   * Voids an order. Orders with firearm lines cannot be voided through the API. The response shape is
   * not shown in the reference (typed loosely).
   *
   * Permission: `orders:write`.
   * Errors: 409 `FIREARM_ORDER`, 409 `ALREADY_VOIDED`, 409 `SALE_REFUNDED`, 404 `NOT_FOUND`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.orders.void(62001);
   */
  void(id: number, options?: RequestOptions): APIPromise<Order> {
    return this._client.request(operations['orders.void'], { path: { id } }, options);
  }
}
