import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { AccountPaymentsListParams } from '../generated/params.js';
import type { AccountPayment } from '../generated/schemas.js';

/**
 * `shop.accountPayments`: money received on house accounts (record one with
 * `shop.customers.account.payments.create`).
 */
export class AccountPayments extends APIResource {
  /**
   * Lists account payments. Named only in the reference: filters and the item shape are not shown, so
   * only `limit` and `cursor` are typed and items are typed loosely.
   *
   * Permission: `accounts:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad cursor).
   * @example
   * for await (const payment of shop.accountPayments.list()) console.log(payment.id, payment.customer_id);
   */
  list(params?: AccountPaymentsListParams, options?: RequestOptions): PagePromise<AccountPayment> {
    return this._client.list(operations['accountPayments.list'], { query: params }, options);
  }
}
