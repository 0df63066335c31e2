import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { StoreCreditListParams } from '../generated/params.js';
import type { StoreCredit } from '../generated/schemas.js';

/** `shop.storeCredit`: store-credit balances across customers (one customer's: `shop.customers.storeCredit`). */
export class StoreCreditBalances extends APIResource {
  /**
   * Lists store credit. Named only in the reference: filters and the item shape are not shown, so only
   * `limit` and `cursor` are typed and items are typed loosely.
   *
   * Permission: `store_credit:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad cursor).
   * @example
   * for await (const credit of shop.storeCredit.list()) console.log(credit.customer_id, credit.balance_cents);
   */
  list(params?: StoreCreditListParams, options?: RequestOptions): PagePromise<StoreCredit> {
    return this._client.list(operations['storeCredit.list'], { query: params }, options);
  }
}
