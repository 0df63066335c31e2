import { dateOf } from '../../state/dates.js';
import { DAY_MS, isoAt, type SeedContext } from '../seed-context.js';
import type { InvoiceRecord, StoreCreditEntryRecord } from './accounts-state.js';
import { insertCardTransaction } from './cards.js';

type InvoiceSeed = Pick<
  InvoiceRecord,
  'kind' | 'customer_id' | 'location_id' | 'status' | 'total_cents' | 'paid_cents'
> & {
  issuedDaysAgo: number;
};

/** Invoices 1 to 6: customer 2 owes on two (one part-paid), 5 is paid up, 9 has an open statement. */
const INVOICES: readonly InvoiceSeed[] = [
  {
    kind: 'invoice',
    customer_id: 2,
    location_id: 1,
    status: 'open',
    total_cents: 12_500,
    paid_cents: 0,
    issuedDaysAgo: 20,
  },
  {
    kind: 'invoice',
    customer_id: 2,
    location_id: 1,
    status: 'part_paid',
    total_cents: 9000,
    paid_cents: 3000,
    issuedDaysAgo: 40,
  },
  {
    kind: 'invoice',
    customer_id: 5,
    location_id: 2,
    status: 'paid',
    total_cents: 4500,
    paid_cents: 4500,
    issuedDaysAgo: 35,
  },
  {
    kind: 'statement',
    customer_id: 9,
    location_id: 1,
    status: 'open',
    total_cents: 4200,
    paid_cents: 0,
    issuedDaysAgo: 5,
  },
  {
    kind: 'invoice',
    customer_id: 5,
    location_id: 1,
    status: 'void',
    total_cents: 1800,
    paid_cents: 0,
    issuedDaysAgo: 25,
  },
  {
    kind: 'invoice',
    customer_id: 9,
    location_id: 1,
    status: 'paid',
    total_cents: 2500,
    paid_cents: 2500,
    issuedDaysAgo: 50,
  },
];

/**
 * House accounts for customers 2, 5 and 9 with invoices and the payments that settled them (one by
 * card at the counter, one by an emailed invoice pay link), and store credit: customer 6's from a
 * return settled in store credit, customer 1 issued then spent, customer 11 adjusted.
 */
export function seedAccounts(context: SeedContext): void {
  const { world } = context;
  const { accounts } = world.state;
  const opened = isoAt(context, -300 * DAY_MS);
  for (const [customerId, limit] of [
    [2, 100_000],
    [5, 50_000],
    [9, 25_000],
  ] as const) {
    accounts.houseAccounts.set(customerId, {
      object: 'customer_account',
      customer_id: customerId,
      status: 'active',
      credit_limit_cents: limit,
      terms: 'net_30',
      created_at: opened,
      updated_at: opened,
    });
  }
  for (const seed of INVOICES) {
    const issued = context.nowMs - seed.issuedDaysAgo * DAY_MS;
    accounts.invoices.insert((id) => ({
      object: 'invoice',
      id,
      number: `INV-${String(2000 + id)}`,
      kind: seed.kind,
      customer_id: seed.customer_id,
      location_id: seed.location_id,
      status: seed.status,
      total_cents: seed.total_cents,
      paid_cents: seed.paid_cents,
      balance_cents: seed.status === 'void' ? 0 : seed.total_cents - seed.paid_cents,
      issued_on: dateOf(issued),
      due_on: dateOf(issued + 30 * DAY_MS),
      created_at: new Date(issued).toISOString(),
      updated_at: isoAt(context, -Math.max(1, seed.issuedDaysAgo - 10) * DAY_MS),
    }));
  }
  payment(context, 2, 1, 3000, 'check', [2], null, 28);
  payment(context, 5, 2, 4500, 'card', [3], 'terminal', 20);
  payment(context, 9, null, 2500, 'card', [6], 'link', 40);
  credit(context, 6, 'refunded', 2499, 'Return RT-2002', 18);
  credit(context, 1, 'issued', 5000, 'Loyalty reward', 60);
  credit(context, 1, 'spent', -1500, 'Applied to R-10001', 12);
  credit(context, 11, 'adjusted', 1000, 'Goodwill after a lane mix-up', 8);
}

function payment(
  context: SeedContext,
  customerId: number,
  locationId: number | null,
  amount: number,
  tender: string,
  invoiceIds: number[],
  cardMode: 'terminal' | 'link' | null,
  daysAgo: number,
): void {
  const { world } = context;
  const at = isoAt(context, -daysAgo * DAY_MS);
  const record = world.state.accounts.payments.insert((id) => ({
    object: 'account_payment',
    id,
    number: `AP-${String(3000 + id)}`,
    customer_id: customerId,
    location_id: locationId,
    amount_cents: amount,
    tender,
    reference: tender === 'check' ? 'Check 1042' : null,
    note: null,
    applied: invoiceIds.map((invoiceId) => ({
      invoice_id: invoiceId,
      amount_cents: amount / invoiceIds.length,
    })),
    store_credit_cents: 0,
    card_transaction_id: null,
    received_at: at,
    created_at: at,
  }));
  if (cardMode === null || !world.state.shop.settings.cardProcessing) return;
  const card = insertCardTransaction(world, {
    kind: 'charge',
    // A pay link emailed with an invoice pays through purpose invoice_link; a counter payment is account_payment.
    purpose: cardMode === 'link' ? 'invoice_link' : 'account_payment',
    mode: cardMode,
    status: 'approved',
    amountCents: amount,
    card: { brand: 'visa', last4: '1881' },
    entryMethod: cardMode === 'link' ? 'online' : 'chip',
    accountPaymentId: record.id,
    customerId,
    locationId,
    registerId: cardMode === 'terminal' ? 3 : null,
    attached: true,
    at: Date.parse(at),
  });
  record.card_transaction_id = card.id;
}

function credit(
  context: SeedContext,
  customerId: number,
  kind: StoreCreditEntryRecord['kind'],
  amount: number,
  note: string,
  daysAgo: number,
): void {
  const { creditEntries } = context.world.state.accounts;
  const previous = creditEntries.filter((entry) => entry.customer_id === customerId).at(-1);
  creditEntries.insert((id) => ({
    object: 'store_credit_entry',
    id,
    customer_id: customerId,
    kind,
    amount_cents: amount,
    balance_after_cents: (previous?.balance_after_cents ?? 0) + amount,
    note,
    created_at: isoAt(context, -daysAgo * DAY_MS),
  }));
}
