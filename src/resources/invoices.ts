import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { InvoicesListParams } from '../generated/params.js';
import type { Invoice } from '../generated/schemas.js';

/**
 * `shop.invoices`: invoices and monthly statements issued to house accounts. Named only in the
 * reference: filters and the invoice shape are not shown (typed loosely), and the permission
 * `accounts:read` is inferred, not stated.
 */
export class Invoices extends APIResource {
  /**
   * Lists invoices. Named only in the reference: the filters and the invoice shape are not shown, so only
   * `limit` and `cursor` are typed (other filters are passed through) and items are typed loosely. The
   * permission is inferred, not stated.
   *
   * Permission: `accounts:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad cursor).
   * @example
   * const invoices = await shop.invoices.list().toArray({ max: 100 });
   */
  list(params?: InvoicesListParams, options?: RequestOptions): PagePromise<Invoice> {
    return this._client.list(operations['invoices.list'], { query: params }, options);
  }

  /**
   * Reads one invoice. Named only in the reference: the invoice shape is not shown (typed loosely), and
   * the permission is inferred, not stated.
   *
   * Permission: `accounts:read`.
   * Errors: 404 `NOT_FOUND`.
   * @example
   * const invoice = await shop.invoices.retrieve(4100);
   */
  retrieve(id: number, options?: RequestOptions): APIPromise<Invoice> {
    return this._client.request(operations['invoices.retrieve'], { path: { id } }, options);
  }
}
