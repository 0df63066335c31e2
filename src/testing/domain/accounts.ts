import type { SandboxCore } from '../core.js';
import { apiError } from '../errors.js';
import type { AccountPaymentRecord, HouseAccountRecord, StoreCreditEntryRecord } from '../state/accounts.js';
import { touch } from './stamps.js';

const OPEN = ['open', 'part_paid'];

/** What a customer owes on the house account: the open balance of its invoices. */
export function owedCents(core: SandboxCore, customerId: number): number {
  return core.state.accounts.invoices
    .filter((invoice) => invoice.customer_id === customerId && OPEN.includes(invoice.status))
    .reduce((total, invoice) => total + invoice.balance_cents, 0);
}

/** The house account as GET /v1/customers/{id}/account shows it (the shape is the sandbox's own). */
export function renderAccount(core: SandboxCore, account: HouseAccountRecord): Record<string, unknown> {
  const owed = owedCents(core, account.customer_id);
  const open = core.state.accounts.invoices.filter(
    (invoice) => invoice.customer_id === account.customer_id && OPEN.includes(invoice.status),
  );
  return {
    ...account,
    balance_cents: owed,
    available_credit_cents: Math.max(0, account.credit_limit_cents - owed),
    open_invoice_count: open.length,
    store_credit_cents: creditBalance(core, account.customer_id),
  };
}

function latestEntry(core: SandboxCore, customerId: number): StoreCreditEntryRecord | undefined {
  return core.state.accounts.creditEntries
    .filter((entry) => entry.customer_id === customerId)
    .sort((a, b) => b.id - a.id)[0];
}

/** A customer's store-credit balance (0 before any entry). */
export function creditBalance(core: SandboxCore, customerId: number): number {
  return latestEntry(core, customerId)?.balance_after_cents ?? 0;
}

/** store credit as the reference names it: customer_id, balance_cents and the latest entry. */
export function renderStoreCredit(core: SandboxCore, customerId: number): Record<string, unknown> {
  const latest = latestEntry(core, customerId);
  return {
    object: 'store_credit',
    customer_id: customerId,
    balance_cents: latest?.balance_after_cents ?? 0,
    latest_entry: latest ? { ...latest } : null,
    updated_at: latest?.created_at ?? null,
  };
}

/**
 * Moves a customer's store credit by `amountCents` (signed) and fires store_credit.changed. Spending
 * more than the balance is 422 INSUFFICIENT_CREDIT with details.balance_cents.
 */
export function moveCredit(
  core: SandboxCore,
  customerId: number,
  kind: StoreCreditEntryRecord['kind'],
  amountCents: number,
  note: string | null,
): StoreCreditEntryRecord {
  const balance = creditBalance(core, customerId);
  if (balance + amountCents < 0) {
    throw apiError('INSUFFICIENT_CREDIT', 'Not enough store credit', {
      balance_cents: balance,
    });
  }
  const entry = core.state.accounts.creditEntries.insert((id) => ({
    object: 'store_credit_entry',
    id,
    customer_id: customerId,
    kind,
    amount_cents: amountCents,
    balance_after_cents: balance + amountCents,
    note,
    created_at: core.clock.iso(),
  }));
  core.events.record('store_credit.changed', renderStoreCredit(core, customerId));
  return entry;
}

/** A house-account payment as the request gives it (the fields are the sandbox's own). */
export interface NewAccountPayment {
  readonly amountCents: number;
  readonly tender: string;
  readonly reference: string | null;
  readonly note: string | null;
}

/**
 * Records money received elsewhere: applied to the oldest open invoices first (invoice.updated each),
 * fired as account.payment_received. Paying more than is owed needs store_credit:write (the excess
 * becomes store credit, store_credit.changed); without it 422 OVERPAYMENT.
 */
export function receivePayment(
  core: SandboxCore,
  customerId: number,
  payment: NewAccountPayment,
  mayCreditExcess: boolean,
): AccountPaymentRecord {
  const owed = owedCents(core, customerId);
  if (payment.amountCents > owed && !mayCreditExcess) {
    throw apiError('OVERPAYMENT', `Only ${owed} cents are owed; paying more needs store_credit:write`, {
      owed_cents: owed,
    });
  }
  const now = core.clock.iso();
  const open = core.state.accounts.invoices
    .filter((invoice) => invoice.customer_id === customerId && OPEN.includes(invoice.status))
    .sort((a, b) => a.due_on.localeCompare(b.due_on) || a.id - b.id);
  let left = payment.amountCents;
  const applied: AccountPaymentRecord['applied'] = [];
  for (const invoice of open) {
    if (left === 0) break;
    const amount = Math.min(left, invoice.balance_cents);
    left -= amount;
    applied.push({ invoice_id: invoice.id, amount_cents: amount });
  }
  const record = core.state.accounts.payments.insert((id) => ({
    object: 'account_payment',
    id,
    number: `AP-${String(3000 + id)}`,
    customer_id: customerId,
    location_id: null,
    amount_cents: payment.amountCents,
    tender: payment.tender,
    reference: payment.reference,
    note: payment.note,
    applied,
    store_credit_cents: left,
    card_transaction_id: null,
    received_at: now,
    created_at: now,
  }));
  core.events.record('account.payment_received', record);
  for (const { invoice_id, amount_cents } of applied) {
    const invoice = core.state.accounts.invoices.get(invoice_id)!;
    invoice.paid_cents += amount_cents;
    invoice.balance_cents -= amount_cents;
    invoice.status = invoice.balance_cents === 0 ? 'paid' : 'part_paid';
    touch(invoice, core.clock.nowMs());
    core.events.record('invoice.updated', invoice);
  }
  if (left > 0) moveCredit(core, customerId, 'issued', left, `Overpayment on ${record.number}`);
  return record;
}
