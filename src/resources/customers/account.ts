import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type { CustomersAccountPaymentsCreateParams } from '../../generated/params.js';
import type { AccountPayment, CustomerAccount } from '../../generated/schemas.js';

/** `shop.customers.account.payments`: money received on a house account outside the shop. */
export class CustomerAccountPayments extends APIResource {
  /**
   * Records a payment received elsewhere on the customer's house account. A balance move: the call
   * always carries an Idempotency-Key (yours, or one generated and reused on every retry), so it cannot
   * be recorded twice. Request and response shapes are not shown in the reference (typed loosely: pass
   * the fields your shop documents).
   *
   * Permission: `accounts:write` (paying more than is owed also needs `store_credit:write`).
   * Errors: 422 `OVERPAYMENT`, 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 400 `IDEMPOTENCY_KEY_REQUIRED`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.customers.account.payments.create(8801, { amount_cents: 12_500 }, { idempotencyKey: 'ach-20261001-17' });
   */
  create(
    customerId: number,
    params: CustomersAccountPaymentsCreateParams,
    options?: RequestOptions,
  ): APIPromise<AccountPayment> {
    return this._client.request(
      operations['customers.account.payments.create'],
      { path: { id: customerId }, body: params },
      options,
    );
  }
}

/** `shop.customers.account`: a customer's house account. */
export class CustomerAccounts extends APIResource {
  #payments?: CustomerAccountPayments;

  /** Payments received on a house account. */
  get payments(): CustomerAccountPayments {
    this.#payments ??= new CustomerAccountPayments(this._client);
    return this.#payments;
  }

  /**
   * Reads a customer's house account. Named only in the reference: the response shape is not shown
   * (typed loosely).
   *
   * Permission: `accounts:read`.
   * Errors: 404 `NOT_FOUND`.
   * @example
   * const account = await shop.customers.account.retrieve(8801);
   */
  retrieve(customerId: number, options?: RequestOptions): APIPromise<CustomerAccount> {
    return this._client.request(
      operations['customers.account.retrieve'],
      { path: { id: customerId } },
      options,
    );
  }
}
