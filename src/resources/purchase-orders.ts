import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type {
  PurchaseOrdersCreateParams,
  PurchaseOrdersReceiveParams,
  PurchaseOrdersUpdateParams,
} from '../generated/params.js';
import type { PurchaseOrder, PurchaseOrderReceiveResult } from '../generated/schemas.js';

/**
 * `shop.purchaseOrders`: orders to vendors and their receiving. Purchase-order records are shown only
 * by the fields the reference names; every field the server sends is kept.
 */
export class PurchaseOrders extends APIResource {
  /**
   * Creates a purchase order from `vendor_id`, `location_id`, `channel_order_id` (unique per shop) and
   * `lines` of `{sku, qty, unit_cost_cents}`; `submit: true` also sends it to the vendor. Request fields
   * beyond these and the response shape are not shown in the reference (others are passed through; the
   * result is typed loosely).
   *
   * Permission: `purchase_orders:write`.
   * Errors: 409 `DUPLICATE_PURCHASE_ORDER`, 422 `EMPTY_PO` (inferred, not listed by the reference:
   * `submit: true` with no lines), 422 `INVALID_REFERENCE` (inferred, not listed by the reference: a vendor
   * or sku that names no record), 404 `NOT_FOUND` (inferred, not listed by the reference: a location the key
   * cannot see), 400 `VALIDATION_ERROR`, 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * const po = await shop.purchaseOrders.create({
   *   vendor_id: 40,
   *   location_id: 3,
   *   channel_order_id: 'ERP-7731',
   *   lines: [{ sku: 'AMMO-9MM-50', qty: 24, unit_cost_cents: 1150 }],
   *   submit: true,
   * });
   */
  create(params: PurchaseOrdersCreateParams, options?: RequestOptions): APIPromise<PurchaseOrder> {
    return this._client.request(operations['purchaseOrders.create'], { body: params }, options);
  }

  /**
   * Changes a purchase order. Named only in the reference: request and response shapes are not shown,
   * so `vendor_id` and `lines` are typed and anything else is passed through.
   *
   * Permission: `purchase_orders:write`.
   * Errors: 409 `PO_SUBMITTED` (vendor or lines of a submitted PO), 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`.
   * @example
   * await shop.purchaseOrders.update(330, { lines: [{ sku: 'AMMO-9MM-50', qty: 48, unit_cost_cents: 1150 }] });
   */
  update(
    id: number,
    params: PurchaseOrdersUpdateParams,
    options?: RequestOptions,
  ): APIPromise<PurchaseOrder> {
    return this._client.request(operations['purchaseOrders.update'], { path: { id }, body: params }, options);
  }

  /**
   * Sends a purchase order to the vendor. Named only in the reference: the response shape is not shown.
   *
   * Permission: `purchase_orders:write`.
   * Errors: 422 `EMPTY_PO` (no lines), 409 `INVALID_STATE` (inferred, not listed by the reference: a PO
   * already submitted, cancelled or received), 404 `NOT_FOUND`, 409 `IDEMPOTENCY_IN_PROGRESS`,
   * 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.purchaseOrders.submit(330);
   */
  submit(id: number, options?: RequestOptions): APIPromise<PurchaseOrder> {
    return this._client.request(operations['purchaseOrders.submit'], { path: { id } }, options);
  }

  /**
   * Cancels a purchase order. Named only in the reference: request and response shapes are not shown.
   *
   * Permission: `purchase_orders:write`.
   * Errors: 409 `INVALID_STATE` (inferred, not listed by the reference: a PO whose status does not allow it),
   * 404 `NOT_FOUND`, 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.purchaseOrders.cancel(330);
   */
  cancel(id: number, options?: RequestOptions): APIPromise<PurchaseOrder> {
    return this._client.request(operations['purchaseOrders.cancel'], { path: { id } }, options);
  }

  /**
   * Receives stock for the PO's non-serialized lines (`all_outstanding: true` for everything left) and
   * posts receiving.posted and inventory.changed. Serialized lines are received at the register: they
   * come back in `skipped`. Request fields beyond `all_outstanding` and `reference` (others are passed
   * through), and the response beyond `skipped`, are not shown in the reference.
   *
   * Permission: `purchase_orders:write`.
   * Errors: 409 `NOTHING_OUTSTANDING` (`details.skipped`), 409 `SERIALIZED`, 404 `NOT_FOUND`,
   * 400 `VALIDATION_ERROR`, 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * const { skipped } = await shop.purchaseOrders.receive(330, { all_outstanding: true, reference: 'Slip 8812' });
   */
  receive(
    id: number,
    params?: PurchaseOrdersReceiveParams,
    options?: RequestOptions,
  ): APIPromise<PurchaseOrderReceiveResult> {
    return this._client.request(
      operations['purchaseOrders.receive'],
      { path: { id }, body: params },
      options,
    );
  }
}
