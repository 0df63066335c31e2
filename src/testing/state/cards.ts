import { Table } from './table.js';

/** card_transaction of reference section 2, field by field. Card numbers and tokens are never kept. */
export interface CardTransactionRecord {
  object: 'card_transaction';
  id: number;
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
  amount_cents: number;
  approved_cents: number;
  refunded_cents: number;
  card_brand: string | null;
  card_last4: string | null;
  entry_method: string | null;
  approval_code: string | null;
  message: string | null;
  processor_ref: string | null;
  parent_id: number | null;
  order_id: number | null;
  account_payment_id: number | null;
  membership_charge_id: number | null;
  customer_id: number | null;
  location_id: number | null;
  register_id: number | null;
  attached: boolean;
  created_at: string;
  completed_at: string | null;
  updated_at: string;
}

/** Every attempt at the card processor. Empty in a shop without card processing (reference rule 7). */
export interface CardState {
  transactions: Table<CardTransactionRecord>;
}

export function createCardState(): CardState {
  return { transactions: new Table() };
}
