import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/**
 * A customer's house account. The reference names the endpoint only; every field here is the sandbox's
 * own. What is owed (balance_cents) is not stored: it is the open balance of the account's invoices.
 */
export type HouseAccountRecord = SandboxRecord<
  Api.CustomerAccount,
  {
    object: 'customer_account';
    status: 'active' | 'on_hold';
    credit_limit_cents: number;
    terms: string;
    created_at: string;
    updated_at: string;
  }
>;

/** The sandbox's invoice statuses, after the invoice.updated wording: paid, part-paid, credited, voided, written off. */
export type InvoiceStatus = 'open' | 'part_paid' | 'paid' | 'credited' | 'void' | 'written_off';

/** An invoice or monthly statement of a house account (fields are the sandbox's own). */
export type InvoiceRecord = SandboxRecord<
  Api.Invoice,
  {
    object: 'invoice';
    number: string;
    kind: 'invoice' | 'statement';
    customer_id: number;
    location_id: number;
    status: InvoiceStatus;
    total_cents: number;
    paid_cents: number;
    balance_cents: number;
    issued_on: string;
    due_on: string;
    created_at: string;
    updated_at: string;
  }
>;

/** Money received on a house account (fields are the sandbox's own, beyond customer_id). */
export type AccountPaymentRecord = SandboxRecord<
  Api.AccountPayment,
  {
    object: 'account_payment';
    number: string;
    location_id: number | null;
    amount_cents: number;
    tender: string;
    reference: string | null;
    note: string | null;
    applied: { invoice_id: number; amount_cents: number }[];
    store_credit_cents: number;
    card_transaction_id: number | null;
    received_at: string;
    created_at: string;
  }
>;

/** One move of a customer's store credit (the "latest entry" of the store_credit.changed payload). */
export interface StoreCreditEntryRecord {
  object: 'store_credit_entry';
  id: number;
  customer_id: number;
  kind: 'issued' | 'spent' | 'refunded' | 'adjusted';
  amount_cents: number;
  balance_after_cents: number;
  note: string | null;
  created_at: string;
}

/** House accounts, invoices, account payments and store credit. */
export interface AccountState {
  /** customer id -> house account (a customer has at most one). */
  houseAccounts: Map<number, HouseAccountRecord>;
  invoices: Table<InvoiceRecord>;
  payments: Table<AccountPaymentRecord>;
  creditEntries: Table<StoreCreditEntryRecord>;
}

export function createAccountState(): AccountState {
  return {
    houseAccounts: new Map(),
    invoices: new Table(),
    payments: new Table(),
    creditEntries: new Table(),
  };
}
