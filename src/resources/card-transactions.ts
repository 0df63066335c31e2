import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { CardTransactionsListParams } from '../generated/params.js';
import type { CardTransaction } from '../generated/schemas.js';

/**
 * `shop.cardTransactions`: every attempt at the card processor, for reconciling against settlement
 * reports. Read only; card numbers and tokens are never returned.
 */
export class CardTransactions extends APIResource {
  /**
   * Lists card transactions, oldest first: terminal sales, saved-card charges, pay-link payments,
   * reversals and refunds, declines and failures included. Match `processor_ref` against the
   * processor's reports. Shops without card processing have none.
   *
   * Permission: `card_transactions:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * for await (const t of shop.cardTransactions.list({ status: 'approved', updated_since: '2026-10-01T00:00:00Z' })) {
   *   ledger.match(t.processor_ref, t.approved_cents);
   * }
   */
  list(params?: CardTransactionsListParams, options?: RequestOptions): PagePromise<CardTransaction> {
    return this._client.list(operations['cardTransactions.list'], { query: params }, options);
  }

  /**
   * Reads one card transaction.
   *
   * Permission: `card_transactions:read`.
   * Errors: 404 `NOT_FOUND`.
   * @example
   * const refund = await shop.cardTransactions.retrieve(7001);
   * if (refund.parent_id !== null) console.log('refund of charge', refund.parent_id);
   */
  retrieve(id: number, options?: RequestOptions): APIPromise<CardTransaction> {
    return this._client.request(operations['cardTransactions.retrieve'], { path: { id } }, options);
  }
}
