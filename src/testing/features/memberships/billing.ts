import { SandboxUsageError } from '../../errors.js';
import { addDays, DAY_MS, dateOf, startOfDate } from '../../state/dates.js';
import { touch } from '../../state/stamps.js';
import { insertCardTransaction } from '../sales/cards.js';
import { completeSale } from '../sales/orders.js';
import type { OrderLine } from '../sales/orders-state.js';
import type { DomainWorld } from '../world.js';
import {
  emailPayLink,
  endNow,
  insertCharge,
  nextPeriodStart,
  payUrl,
  periodEnd,
  recordMembershipChange,
  scheduledEnd,
  UNPAID,
} from './memberships.js';
import type { MembershipChargeRecord, MembershipRecord } from './state.js';

/**
 * Days after the due date on which a saved card is charged: the due date, then two retries. The
 * reference says only that "the shop retries on its schedule"; this schedule is the sandbox's. The last
 * retry day is the last entry: a membership still unpaid after it expires.
 */
export const CARD_ATTEMPT_DAYS = [0, 3, 7] as const;
const LAST_RETRY_DAY = CARD_ATTEMPT_DAYS.at(-1)!;

/**
 * Starts the nightly billing run at every 00:00 UTC of the sandbox clock (the time of day is the
 * sandbox's choice). `clock.advance('40d')` runs each night in order.
 */
export function startBillingRuns(world: DomainWorld): void {
  const nowMs = world.clock.nowMs();
  scheduleRun(world, nowMs - (nowMs % DAY_MS) + DAY_MS);
}

function scheduleRun(world: DomainWorld, atMs: number): void {
  world.clock.schedule(atMs, () => {
    runBilling(world, dateOf(atMs));
    scheduleRun(world, atMs + DAY_MS);
  });
}

/** One night: scheduled cancellations, renewals, card attempts, past due and expiry, in that order. */
export function runBilling(world: DomainWorld, date: string): void {
  for (const membership of world.state.memberships.memberships.all()) billMembership(world, membership, date);
}

function unpaidCharges(world: DomainWorld, membership: MembershipRecord): MembershipChargeRecord[] {
  const { charges, chargeOwner } = world.state.memberships;
  return charges.filter(
    (charge) => chargeOwner.get(charge.id) === membership.id && UNPAID.includes(charge.status),
  );
}

function billMembership(world: DomainWorld, membership: MembershipRecord, date: string): void {
  if (membership.status === 'cancelled' || membership.status === 'expired') return;
  const at = new Date(startOfDate(date)).toISOString();
  const endsAfter = membership.cancel_at_period_end ? scheduledEnd(membership) : null;
  if (endsAfter !== null && date > endsAfter) {
    endNow(world, membership, at, null);
    recordMembershipChange(world, 'membership.updated', membership, 'cancelled', `Term ended ${endsAfter}`);
    return;
  }
  // Pending waits for its first payment; frozen pauses billing (what ends a freeze is not shown).
  if (membership.status !== 'active' && membership.status !== 'past_due') return;
  if (membership.status === 'active' && membership.next_bill_on !== null && date >= membership.next_bill_on) {
    renew(world, membership, at);
  }
  const card = world.state.memberships.extras.get(membership.id)?.card ?? null;
  for (const charge of unpaidCharges(world, membership)) {
    const attemptDay = CARD_ATTEMPT_DAYS[charge.attempts];
    if (membership.billing_method === 'card' && card && attemptDay !== undefined) {
      if (date === addDays(charge.due_on, attemptDay)) chargeSavedCard(world, membership, charge, at);
    }
  }
  const owed = unpaidCharges(world, membership);
  if (membership.status === 'active' && owed.some((charge) => charge.due_on < date)) {
    membership.status = 'past_due';
    touch(membership, Date.parse(at));
    recordMembershipChange(
      world,
      'membership.updated',
      membership,
      'past_due',
      'Dues unpaid after the due date',
    );
  }
  if (
    membership.status === 'past_due' &&
    owed.some((charge) => date > addDays(charge.due_on, LAST_RETRY_DAY))
  ) {
    Object.assign(membership, { status: 'expired', next_bill_on: null });
    touch(membership, Date.parse(at));
    recordMembershipChange(
      world,
      'membership.updated',
      membership,
      'expired',
      'Unpaid past the last retry day',
    );
  }
}

/** active -> active for the next period: guest passes reset, a dues charge at the joined price. */
function renew(world: DomainWorld, membership: MembershipRecord, at: string): void {
  const plan = world.state.memberships.plans.get(membership.plan_id)!;
  const start = membership.next_bill_on!;
  const end = periodEnd(plan, start);
  Object.assign(membership, {
    current_period_start: start,
    current_period_end: end,
    next_bill_on: nextPeriodStart(plan, start),
    guest_passes_left: plan.guest_passes_per_period,
  });
  touch(membership, Date.parse(at));
  insertCharge(world, membership, {
    kind: 'dues',
    period_start: start,
    period_end: end,
    amount_cents: membership.price_cents,
    status: 'due',
    due_on: start,
    attempts: 0,
    last_error: null,
    order_id: null,
    pay_url: membership.billing_method === 'card' ? null : payUrl(world),
    paid_at: null,
  });
  recordMembershipChange(world, 'membership.updated', membership, 'renewed', `Period ${start} to ${end}`);
  if (membership.billing_method === 'link') emailPayLink(world, membership, 'Your dues are due');
}

/**
 * Charges the saved card for everything owed now, as the nightly run does on a retry day: approved pays
 * (sale.completed), declined fails each charge (membership.payment_failed).
 */
export function chargeSavedCardNow(world: DomainWorld, membershipId: number): MembershipRecord {
  const membership = world.state.memberships.memberships.get(membershipId);
  if (!membership) throw new SandboxUsageError(`No membership ${membershipId}`);
  if (membership.billing_method !== 'card' || !world.state.memberships.extras.get(membershipId)?.card) {
    throw new SandboxUsageError(`Membership ${membershipId} has no saved card to charge`);
  }
  const owed = unpaidCharges(world, membership);
  if (owed.length === 0) throw new SandboxUsageError(`Membership ${membershipId} owes nothing`);
  for (const charge of owed) chargeSavedCard(world, membership, charge, world.clock.iso());
  return membership;
}

/** Charges the saved card: approved pays the charge (a sale.completed dues order); declined fails it. */
function chargeSavedCard(
  world: DomainWorld,
  membership: MembershipRecord,
  charge: MembershipChargeRecord,
  at: string,
): void {
  const card = world.state.memberships.extras.get(membership.id)!.card!;
  charge.attempts += 1;
  const attempt = {
    kind: 'charge',
    purpose: 'membership',
    mode: 'token',
    amountCents: charge.amount_cents,
    card: { brand: card.brand, last4: card.last4 },
    entryMethod: 'card_on_file',
    membershipChargeId: charge.id,
    customerId: membership.customer_id,
    locationId: membership.location_id,
    at: Date.parse(at),
  } as const;
  if (card.declines) {
    insertCardTransaction(world, { ...attempt, status: 'declined' });
    Object.assign(charge, { status: 'failed', last_error: 'Card declined: insufficient funds' });
    touch(membership, Date.parse(at));
    recordMembershipChange(
      world,
      'membership.payment_failed',
      membership,
      'payment_failed',
      charge.last_error,
    );
    return;
  }
  const order = sellDues(world, membership, [charge], 'membership');
  insertCardTransaction(world, { ...attempt, status: 'approved', orderId: order.id, attached: true });
  settle(world, membership, [charge], order.id, at);
}

/** A dues order for the charges, fired as sale.completed ("also fired for membership dues orders"). */
function sellDues(
  world: DomainWorld,
  membership: MembershipRecord,
  charges: MembershipChargeRecord[],
  source: string,
) {
  const plan = world.state.memberships.plans.get(membership.plan_id)!;
  const lines: OrderLine[] = charges.map((charge) => ({
    type: 'membership',
    product_id: plan.product_id,
    description: `${plan.name} ${charge.kind === 'signup' ? 'sign-up' : 'dues'} ${charge.period_start} to ${charge.period_end}`,
    qty: 1,
    unit_price_cents: charge.amount_cents,
    total_cents: charge.amount_cents,
  }));
  return completeSale(world, {
    locationId: membership.location_id,
    customerId: membership.customer_id,
    lines,
    source,
  });
}

/** Marks charges paid; a pending membership becomes active and a past-due one active again. */
function settle(
  world: DomainWorld,
  membership: MembershipRecord,
  charges: MembershipChargeRecord[],
  orderId: number,
  at: string,
): void {
  for (const charge of charges) {
    Object.assign(charge, {
      status: 'paid',
      order_id: orderId,
      pay_url: null,
      last_error: null,
      paid_at: at,
    });
  }
  touch(membership, Date.parse(at));
  if (unpaidCharges(world, membership).length > 0) return;
  // activated and reactivated are the sandbox's names; the reference shows the transitions, not the values.
  if (membership.status === 'pending') {
    membership.status = 'active';
    recordMembershipChange(world, 'membership.updated', membership, 'activated', 'First payment made');
  } else if (membership.status === 'past_due') {
    membership.status = 'active';
    recordMembershipChange(world, 'membership.updated', membership, 'reactivated', 'Dues paid');
  }
}

/**
 * Everything a member owes, paid at the register (pending's first payment, past-due dues, counter
 * billing): one sale.completed order; a card tender also leaves an attached terminal card transaction.
 */
export function payAtRegister(
  world: DomainWorld,
  membershipId: number,
  options: { tender?: 'cash' | 'card' } = {},
): MembershipRecord {
  const membership = world.state.memberships.memberships.get(membershipId);
  if (!membership) throw new SandboxUsageError(`No membership ${membershipId}`);
  const owed = unpaidCharges(world, membership);
  if (owed.length === 0) throw new SandboxUsageError(`Membership ${membershipId} owes nothing`);
  const tender = options.tender ?? 'cash';
  if (tender === 'card' && !world.state.shop.settings.cardProcessing) {
    throw new SandboxUsageError('This shop has no card processing: pay with cash');
  }
  const order = sellDues(world, membership, owed, 'pos');
  if (tender === 'card') {
    insertCardTransaction(world, {
      kind: 'charge',
      purpose: 'membership',
      mode: 'terminal',
      status: 'approved',
      amountCents: owed.reduce((total, charge) => total + charge.amount_cents, 0),
      card: { brand: 'visa', last4: '4242' },
      entryMethod: 'chip',
      orderId: order.id,
      customerId: membership.customer_id,
      locationId: membership.location_id,
      registerId: 1,
      attached: true,
      at: world.clock.nowMs(),
    });
  }
  settle(world, membership, owed, order.id, world.clock.iso());
  return membership;
}
