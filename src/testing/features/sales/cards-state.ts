import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/** card_transaction of reference section 2, field by field. Card numbers and tokens are never kept. */
export type CardTransactionRecord = SandboxRecord<
  Api.CardTransaction,
  {
    // Closed here: the values the sandbox's processor produces.
    kind: 'charge' | 'refund';
    purpose: 'sale' | 'account_payment' | 'membership' | 'invoice_link';
    mode: 'terminal' | 'token' | 'link' | 'reference';
    processor: 'cardproc' | 'simulator';
    status:
      | 'pending'
      | 'approved'
      | 'declined'
      | 'cancelled'
      | 'failed'
      | 'reversing'
      | 'reversed'
      | 'refunded';
  }
>;

/** Every attempt at the card processor. Empty in a shop without card processing (reference rule 7). */
export interface CardState {
  transactions: Table<CardTransactionRecord>;
}

export function createCardState(): CardState {
  return { transactions: new Table() };
}
