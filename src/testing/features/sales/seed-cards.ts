import { DAY_MS, type SeedContext } from '../seed-context.js';
import { insertCardTransaction, type NewCardTransaction } from './cards.js';
import type { SeededOrders } from './seed.js';

const VISA = { brand: 'visa', last4: '4242' };
const MASTERCARD = { brand: 'mastercard', last4: '5454' };
const AMEX = { brand: 'amex', last4: '0005' };

/**
 * Card transactions at the registers: each status, kind, mode and processor; last, an approved charge never
 * attached, which the clock reverses 10 minutes after start.
 */
export function seedCardTransactions(context: SeedContext, orders: SeededOrders): void {
  const { world, nowMs } = context;
  if (!world.state.shop.settings.cardProcessing) return;
  const sale = (days: number, input: Partial<NewCardTransaction> & Pick<NewCardTransaction, 'status'>) =>
    insertCardTransaction(world, {
      kind: 'charge',
      purpose: 'sale',
      mode: 'terminal',
      amountCents: 0,
      card: VISA,
      entryMethod: 'chip',
      locationId: 1,
      registerId: 1,
      at: nowMs - days * DAY_MS,
      ...input,
    });
  sale(45, {
    processor: 'simulator',
    status: 'approved',
    amountCents: 1299,
    card: MASTERCARD,
    attached: true,
    entryMethod: 'swipe',
  });
  const reversed = sale(44, {
    processor: 'simulator',
    status: 'reversed',
    amountCents: 2499,
    message: 'Reversed: charge never attached',
  });
  reversed.updated_at = new Date(Date.parse(reversed.created_at) + 11 * 60_000).toISOString();
  const refunded = sale(12 + 3 / 24, {
    status: 'approved',
    amountCents: orders.refunded.total_cents,
    orderId: orders.refunded.id,
    customerId: 1,
    attached: true,
  });
  const partial = sale(10, {
    kind: 'refund',
    mode: 'reference',
    status: 'approved',
    amountCents: 1299,
    parentId: refunded.id,
    orderId: orders.refunded.id,
    customerId: 1,
    entryMethod: null,
    attached: true,
  });
  refunded.refunded_cents = partial.amount_cents;
  refunded.updated_at = partial.created_at;
  const voidedSale = sale(6 + 1 / 24, {
    status: 'approved',
    amountCents: orders.voided.total_cents,
    orderId: orders.voided.id,
    customerId: 4,
    locationId: 2,
    registerId: 3,
    card: AMEX,
    entryMethod: 'contactless',
    attached: true,
  });
  const giveBack = sale(6, {
    kind: 'refund',
    mode: 'reference',
    status: 'approved',
    amountCents: voidedSale.amount_cents,
    parentId: voidedSale.id,
    orderId: orders.voided.id,
    customerId: 4,
    locationId: 2,
    registerId: 3,
    card: AMEX,
    entryMethod: null,
    attached: true,
  });
  Object.assign(voidedSale, {
    status: 'refunded',
    refunded_cents: voidedSale.amount_cents,
    updated_at: giveBack.created_at,
  });
  sale(2 + 5 / 24 + 0.01, {
    status: 'declined',
    amountCents: orders.firearm.total_cents,
    customerId: 3,
    card: MASTERCARD,
    message: 'Declined: do not honor',
  });
  sale(2 + 5 / 24, {
    status: 'approved',
    amountCents: orders.firearm.total_cents,
    orderId: orders.firearm.id,
    customerId: 3,
    attached: true,
  });
  sale(2 / 24, {
    status: 'approved',
    amountCents: orders.voidable.total_cents,
    orderId: orders.voidable.id,
    customerId: 2,
    entryMethod: 'contactless',
    attached: true,
  });
  sale(1, { status: 'cancelled', amountCents: 4599 });
  sale(1 - 1 / 24, { status: 'failed', amountCents: 4599, entryMethod: 'contactless' });
  sale(30 / 86_400, { status: 'pending', amountCents: 899, registerId: 2 });
  // Approved at the sandbox's start and never attached (the register closed mid-sale).
  sale(0, { status: 'approved', amountCents: 3398, registerId: 2, card: MASTERCARD });
}
