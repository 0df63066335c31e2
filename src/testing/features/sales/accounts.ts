import { apiError, notFound } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import type { DomainWorld } from '../world.js';
import type { AccountPaymentRecord, HouseAccountRecord, StoreCreditEntryRecord } from './accounts-state.js';

const OPEN = ['open', 'part_paid'];

/** What a customer owes on the house account: the open balance of its invoices. */
export function owedCents(world: DomainWorld, customerId: number): number {
  return world.state.accounts.invoices
    .filter((invoice) => invoice.customer_id === customerId && OPEN.includes(invoice.status))
    .reduce((total, invoice) => total + invoice.balance_cents, 0);
}

/** The house account of a customer: 404 NOT_FOUND when the customer or its account does not exist. */
export function houseAccountOf(world: DomainWorld, customerId: number): HouseAccountRecord {
  const account = world.state.accounts.houseAccounts.get(customerId);
  if (!account || !world.state.shop.customers.get(customerId)) throw notFound('house account');
  return account;
}

/** The house account as GET /v1/customers/{id}/account shows it (the shape is the sandbox's own). */
export function renderAccount(world: DomainWorld, account: HouseAccountRecord): Record<string, unknown> {
  const owed = owedCents(world, account.customer_id);
  const open = world.state.accounts.invoices.filter(
    (invoice) => invoice.customer_id === account.customer_id && OPEN.includes(invoice.status),
  );
  return {
    ...account,
    balance_cents: owed,
    available_credit_cents: Math.max(0, account.credit_limit_cents - owed),
    open_invoice_count: open.length,
    store_credit_cents: creditBalance(world, account.customer_id),
  };
}

function latestEntry(world: DomainWorld, customerId: number): StoreCreditEntryRecord | undefined {
  return world.state.accounts.creditEntries
    .filter((entry) => entry.customer_id === customerId)
    .sort((a, b) => b.id - a.id)[0];
}

/** A customer's store-credit balance (0 before any entry). */
export function creditBalance(world: DomainWorld, customerId: number): number {
  return latestEntry(world, customerId)?.balance_after_cents ?? 0;
}

/** store credit as the reference names it: customer_id, balance_cents and the latest entry. */
export function renderStoreCredit(world: DomainWorld, customerId: number): Record<string, unknown> {
  const latest = latestEntry(world, customerId);
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
  world: DomainWorld,
  customerId: number,
  kind: StoreCreditEntryRecord['kind'],
  amountCents: number,
  note: string | null,
): StoreCreditEntryRecord {
  const balance = creditBalance(world, customerId);
  if (balance + amountCents < 0) {
    throw apiError('INSUFFICIENT_CREDIT', 'Not enough store credit', {
      balance_cents: balance,
    });
  }
  const entry = world.state.accounts.creditEntries.insert((id) => ({
    object: 'store_credit_entry',
    id,
    customer_id: customerId,
    kind,
    amount_cents: amountCents,
    balance_after_cents: balance + amountCents,
    note,
    created_at: world.clock.iso(),
  }));
  world.events.record('store_credit.changed', renderStoreCredit(world, customerId));
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
  world: DomainWorld,
  customerId: number,
  payment: NewAccountPayment,
  mayCreditExcess: boolean,
): AccountPaymentRecord {
  const owed = owedCents(world, customerId);
  if (payment.amountCents > owed && !mayCreditExcess) {
    throw apiError('OVERPAYMENT', `Only ${owed} cents are owed; paying more needs store_credit:write`, {
      owed_cents: owed,
    });
  }
  const now = world.clock.iso();
  const open = world.state.accounts.invoices
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
  const record = world.state.accounts.payments.insert((id) => ({
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
  world.events.record('account.payment_received', record);
  for (const { invoice_id, amount_cents } of applied) {
    const invoice = world.state.accounts.invoices.get(invoice_id)!;
    invoice.paid_cents += amount_cents;
    invoice.balance_cents -= amount_cents;
    invoice.status = invoice.balance_cents === 0 ? 'paid' : 'part_paid';
    touch(invoice, world.clock.nowMs());
    world.events.record('invoice.updated', invoice);
  }
  if (left > 0) moveCredit(world, customerId, 'issued', left, `Overpayment on ${record.number}`);
  return record;
}
