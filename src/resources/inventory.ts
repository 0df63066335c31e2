import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type {
  InventoryAdjustParams,
  InventoryListParams,
  InventoryListSerializedParams,
  InventorySetParams,
} from '../generated/params.js';
import type { InventoryLevel, InventoryWriteResult, SerializedItem } from '../generated/schemas.js';

/**
 * `shop.inventory`: stock levels per product and location. Keep bulk writes under 60 a minute on the
 * Established plan; reconcile by pulling every 15 to 60 minutes.
 */
export class Inventory extends APIResource {
  /**
   * Lists inventory levels. Serialized items (every firearm) are counted per unit. A mirror sets its
   * stock to `qty_available`, never adds deltas.
   *
   * The reference shows this endpoint only in part: `updated_since`, `limit` and `cursor` are typed, and
   * request filters beyond them are not shown (others are passed through as given, not refused). The
   * response items are typed as the inventory level that inventory.changed carries, the one place the
   * reference shows that shape.
   *
   * Permission: `inventory:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * for await (const level of shop.inventory.list({ updated_since: lastSync })) {
   *   mirror.set(level.product_id, level.location_id, level.qty_available);
   * }
   */
  list(params?: InventoryListParams, options?: RequestOptions): PagePromise<InventoryLevel> {
    return this._client.list(operations['inventory.list'], { query: params }, options);
  }

  /**
   * Lists serialized units and their serial numbers. Request filters beyond `product_id` and `status`,
   * and the response's item shape beyond the serial number and status, are not shown in the reference
   * (other filters are passed through; items are typed loosely).
   *
   * Permission: `inventory:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * const units = await shop.inventory.listSerialized({ product_id: 4410, status: 'in_stock' }).toArray();
   */
  listSerialized(
    params?: InventoryListSerializedParams,
    options?: RequestOptions,
  ): PagePromise<SerializedItem> {
    return this._client.list(operations['inventory.listSerialized'], { query: params }, options);
  }

  /**
   * Adds the signed `qty_delta` to a product's stock at a location. The call always carries an
   * Idempotency-Key, so a retry cannot apply the change twice. Request fields beyond `sku`, `location_id`,
   * `qty_delta`, `reason` and `note` are not shown in the reference (others are passed through), nor which
   * are required: `sku` and `qty_delta` are, since an adjustment means nothing without them. The response
   * shape is not shown either: it is typed as the new inventory level, fields optional.
   *
   * Permission: `inventory:write`.
   * Errors: 409 `NOT_TRACKED`, 409 `INSUFFICIENT_STOCK` (inferred, not listed by the reference: stock going
   * below zero where negative stock is not allowed), 404 `NOT_FOUND` (inferred, not listed by the reference:
   * an unknown sku, or a location the key cannot see), 400 `VALIDATION_ERROR`, 409 `IDEMPOTENCY_IN_PROGRESS`,
   * 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.inventory.adjust(
   *   { sku: 'AMMO-9MM-50', location_id: 3, qty_delta: 24, reason: 'receive', note: 'Packing slip 8812' },
   *   { idempotencyKey: 'slip-8812-ammo' },
   * );
   */
  adjust(params: InventoryAdjustParams, options?: RequestOptions): APIPromise<InventoryWriteResult> {
    return this._client.request(operations['inventory.adjust'], { body: params }, options);
  }

  /**
   * Sets a product's absolute count at a location. The request fields beyond the product and location,
   * and the response, are not shown in the reference: both are typed loosely, so pass the count field
   * your shop documents.
   *
   * Permission: `inventory:write`.
   * Errors: 409 `SERIALIZED` (serialized units are counted one by one), 409 `NOT_TRACKED`, 404 `NOT_FOUND`
   * (inferred, not listed by the reference: an unknown sku, or a location the key cannot see),
   * 400 `VALIDATION_ERROR`, 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.inventory.set({ sku: 'AMMO-9MM-50', location_id: 3, qty: 120 });
   */
  set(params: InventorySetParams, options?: RequestOptions): APIPromise<InventoryWriteResult> {
    return this._client.request(operations['inventory.set'], { body: params }, options);
  }
}
