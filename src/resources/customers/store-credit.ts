import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type {
  CustomersStoreCreditIssueParams,
  CustomersStoreCreditRedeemParams,
} from '../../generated/params.js';
import type { StoreCredit } from '../../generated/schemas.js';

/**
 * `shop.customers.storeCredit`: one customer's store-credit balance. Named only in the reference: the
 * paths of issue and redeem are the SDK's resource-style choice, and request and response shapes are
 * not shown (typed loosely, with `balance_cents` where the server sends it).
 */
export class CustomerStoreCredit extends APIResource {
  /**
   * Reads a customer's store-credit balance. Named only in the reference: the response shape is not shown
   * (typed loosely, with `customer_id` and `balance_cents` where the server sends them).
   *
   * Permission: `store_credit:read`.
   * Errors: 404 `NOT_FOUND`.
   * @example
   * const { balance_cents } = await shop.customers.storeCredit.retrieve(8801);
   */
  retrieve(customerId: number, options?: RequestOptions): APIPromise<StoreCredit> {
    return this._client.request(
      operations['customers.storeCredit.retrieve'],
      { path: { id: customerId } },
      options,
    );
  }

  /**
   * Adds store credit to a customer. A balance move: the call always carries an Idempotency-Key (yours,
   * or one generated and reused on every retry), so a retry cannot issue twice.
   *
   * Named only in the reference: request and response shapes are not shown, and the path is the SDK's
   * resource-style choice. Typed loosely: pass the fields your shop documents (passed through as given);
   * the result has `balance_cents` where the server sends it.
   *
   * Permission: `store_credit:write`.
   * Errors: 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 400 `IDEMPOTENCY_KEY_REQUIRED`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.customers.storeCredit.issue(8801, { amount_cents: 2500 }, { idempotencyKey: 'goodwill-7731' });
   */
  issue(
    customerId: number,
    params: CustomersStoreCreditIssueParams,
    options?: RequestOptions,
  ): APIPromise<StoreCredit> {
    return this._client.request(
      operations['customers.storeCredit.issue'],
      { path: { id: customerId }, body: params },
      options,
    );
  }

  /**
   * Spends a customer's store credit. A balance move: the call always carries an Idempotency-Key (yours,
   * or one generated and reused on every retry), so a retry cannot spend twice.
   *
   * Named only in the reference: request and response shapes are not shown, and the path is the SDK's
   * resource-style choice. Typed loosely: pass the fields your shop documents (passed through as given);
   * the result has `balance_cents` where the server sends it.
   *
   * Permission: `store_credit:write`.
   * Errors: 422 `INSUFFICIENT_CREDIT`, 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 400 `IDEMPOTENCY_KEY_REQUIRED`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.customers.storeCredit.redeem(8801, { amount_cents: 1000 }, { idempotencyKey: 'web-1001-credit' });
   */
  redeem(
    customerId: number,
    params: CustomersStoreCreditRedeemParams,
    options?: RequestOptions,
  ): APIPromise<StoreCredit> {
    return this._client.request(
      operations['customers.storeCredit.redeem'],
      { path: { id: customerId }, body: params },
      options,
    );
  }
}
