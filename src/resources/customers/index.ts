import { APIResource } from '../../core/resource.js';
import { CustomerAccountPayments, CustomerAccounts } from './account.js';
import { CustomerStoreCredit } from './store-credit.js';

/**
 * `shop.customers`: per-customer house accounts and store credit. Customer records themselves are not
 * read or written through this group (the reference names no customer endpoint).
 */
export class Customers extends APIResource {
  #account?: CustomerAccounts;
  #storeCredit?: CustomerStoreCredit;

  /** A customer's house account and the payments recorded on it. */
  get account(): CustomerAccounts {
    this.#account ??= new CustomerAccounts(this._client);
    return this.#account;
  }

  /** A customer's store-credit balance: retrieve, issue, redeem. */
  get storeCredit(): CustomerStoreCredit {
    this.#storeCredit ??= new CustomerStoreCredit(this._client);
    return this.#storeCredit;
  }
}

export { CustomerAccountPayments, CustomerAccounts, CustomerStoreCredit };
