import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { ProductsListParams, ProductsUpdateParams } from '../generated/params.js';
import type { Product } from '../generated/schemas.js';

/** `shop.products`: the catalog, for an inventory mirror. */
export class Products extends APIResource {
  /**
   * Lists products, oldest first; `include: 'inventory'` adds the inventory levels per location.
   * Request filters beyond `include`, `updated_since`, `limit` and `cursor`, and product fields beyond
   * those the inventory guide names, are not shown in the reference: other filters are passed through,
   * and every field the server sends is kept.
   *
   * Permission: `products:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * for await (const p of shop.products.list({ include: 'inventory', updated_since: lastSync })) upsert(p);
   */
  list(params?: ProductsListParams, options?: RequestOptions): PagePromise<Product> {
    return this._client.list(operations['products.list'], { query: params }, options);
  }

  /**
   * Changes a product's `price_cents`, sale window, `vendor_id`, `vendor_sku` or `reorder_qty` (null
   * unsets it). Setting the vendor or vendor SKU also makes that vendor the preferred one. The sale
   * window's field names and the response shape are not shown in the reference (typed loosely).
   *
   * Permission: `products:write`.
   * Errors: 409 `COMPLIANCE_FIELD` (firearm, serialized, NFA or product type changes; `details.field`),
   * 409 `HAS_STOCK` (flipping `is_serialized` with stock on hand), 409 `SKU_TAKEN` (inferred, not listed by
   * the reference: should a `sku` sent along belong to another product), 404 `NOT_FOUND`,
   * 400 `VALIDATION_ERROR`.
   * @example
   * await shop.products.update(2201, { price_cents: 1899, reorder_qty: 24 });
   */
  update(id: number, params: ProductsUpdateParams, options?: RequestOptions): APIPromise<Product> {
    return this._client.request(operations['products.update'], { path: { id }, body: params }, options);
  }
}
