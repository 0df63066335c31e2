import type { SandboxCore } from '../core.js';
import { insertCardTransaction } from '../domain/cards.js';
import { addDays, addMonths, dateOf, startOfDate } from '../domain/dates.js';
import { startBillingRuns } from '../domain/membership-billing.js';
import {
  commitmentEnd,
  insertCharge,
  nextPeriodStart,
  PAY_HOST,
  payUrl,
  periodEnd,
} from '../domain/memberships.js';
import type {
  MembershipChargeRecord,
  MembershipPlanRecord,
  MembershipRecord,
  MembershipStatus,
  SavedCard,
} from '../state/memberships.js';
import { DAY_MS, HOUR_MS, isoAt, type SeedContext } from './context.js';
import { insertSeedOrder } from './sales.js';

type PlanSeed = Omit<MembershipPlanRecord, 'object' | 'id' | 'created_at' | 'updated_at'>;

/** Plans 1 to 4: monthly, quarterly (month x 3) with a 6-month term, a 12-month league, an archived one. */
const PLANS: readonly PlanSeed[] = [
  {
    name: 'Range Monthly',
    description: 'Unlimited lane time on weekdays, 10% off ammunition.',
    perks: 'Weekday lanes included; 10% off ammo; 2 guest passes a month',
    status: 'active',
    price_cents: 3999,
    billing_interval: 'month',
    interval_count: 1,
    initiation_fee_cents: 2500,
    commitment_months: 0,
    max_members: 1,
    guest_passes_per_period: 2,
    customer_group_id: 1,
    product_id: null,
    taxable: true,
  },
  {
    name: 'Family Quarterly',
    description: 'Lane time for up to four family members, billed every three months.',
    perks: 'Lanes for four; 6 guest passes a quarter; member pricing',
    status: 'active',
    price_cents: 10_999,
    billing_interval: 'month',
    interval_count: 3,
    initiation_fee_cents: 0,
    commitment_months: 6,
    max_members: 4,
    guest_passes_per_period: 6,
    customer_group_id: 2,
    product_id: null,
    taxable: true,
  },
  {
    name: 'Rifle League',
    description: null,
    perks: 'League nights on the rifle lanes; 1 guest pass a month',
    status: 'active',
    price_cents: 2999,
    billing_interval: 'month',
    interval_count: 1,
    initiation_fee_cents: 5000,
    commitment_months: 12,
    max_members: 1,
    guest_passes_per_period: 1,
    customer_group_id: null,
    product_id: null,
    taxable: false,
  },
  {
    name: 'Founders Club',
    description: 'The original membership, closed to new members.',
    perks: 'Everything in Range Monthly',
    status: 'archived',
    price_cents: 2499,
    billing_interval: 'month',
    interval_count: 1,
    initiation_fee_cents: 0,
    commitment_months: 0,
    max_members: 1,
    guest_passes_per_period: 2,
    customer_group_id: 1,
    product_id: null,
    taxable: true,
  },
];

interface MembershipSeed {
  readonly plan: number;
  readonly customer: number;
  readonly members?: readonly number[];
  readonly location: number;
  readonly status: MembershipStatus;
  readonly billing: MembershipRecord['billing_method'];
  readonly card?: SavedCard;
  readonly startedOn: string;
  /** Start of the current (last) period; earlier periods were paid. */
  readonly periodStart: string;
  /** The current period's charge. */
  readonly current: { status: MembershipChargeRecord['status']; attempts?: number };
  readonly nextBillOn?: string | null;
  readonly cancelAtPeriodEnd?: boolean;
  readonly cancelReason?: string;
  readonly cancelledOn?: string;
  readonly frozenUntil?: string;
  readonly guestPassesLeft?: number;
}

const VISA: SavedCard = { brand: 'visa', last4: '4242', declines: false };

/** Memberships 1 to 10 relative to today: each status, each billing method, clock events in the first days. */
function membershipSeeds(today: string): MembershipSeed[] {
  const day = (offset: number) => addDays(today, offset);
  return [
    // 1: renews by card in 3 days (nothing happens on the clock before then).
    {
      plan: 1,
      customer: 1,
      location: 1,
      status: 'active',
      billing: 'card',
      card: VISA,
      startedOn: addMonths(day(3), -3),
      periodStart: addMonths(day(3), -1),
      current: { status: 'paid' },
    },
    // 2: a family on link billing.
    {
      plan: 2,
      customer: 3,
      members: [4, 6],
      location: 1,
      status: 'active',
      billing: 'link',
      startedOn: addDays(addMonths(today, -4), 5),
      periodStart: addDays(addMonths(today, -1), 5),
      current: { status: 'paid' },
    },
    // 3: the saved card declines; retried in 3 days, expires the day after.
    {
      plan: 1,
      customer: 7,
      location: 1,
      status: 'past_due',
      billing: 'card',
      card: { brand: 'mastercard', last4: '5454', declines: true },
      startedOn: addMonths(day(-4), -2),
      periodStart: day(-4),
      current: { status: 'failed', attempts: 2 },
    },
    // 4: signed up yesterday, waiting for the first payment by pay link.
    {
      plan: 3,
      customer: 8,
      location: 1,
      status: 'pending',
      billing: 'link',
      startedOn: day(-1),
      periodStart: day(-1),
      current: { status: 'due' },
    },
    // 5: lapsed after unpaid dues.
    {
      plan: 1,
      customer: 9,
      location: 2,
      status: 'expired',
      billing: 'counter',
      startedOn: addMonths(day(-40), -3),
      periodStart: day(-40),
      current: { status: 'due' },
      nextBillOn: null,
    },
    // 6: cancelled two weeks ago, after its term.
    {
      plan: 3,
      customer: 10,
      location: 1,
      status: 'cancelled',
      billing: 'counter',
      startedOn: addMonths(today, -14),
      periodStart: addMonths(today, -1),
      current: { status: 'paid' },
      nextBillOn: null,
      cancelReason: 'Moved out of state',
      cancelledOn: day(-15),
    },
    // 7: frozen for ten more days.
    {
      plan: 1,
      customer: 11,
      location: 1,
      status: 'frozen',
      billing: 'card',
      card: { brand: 'amex', last4: '0005', declines: false },
      startedOn: addMonths(day(10), -5),
      periodStart: addMonths(day(10), -1),
      current: { status: 'paid' },
      frozenUntil: day(10),
    },
    // 8: cancels at the end of its period, in 7 days.
    {
      plan: 1,
      customer: 12,
      location: 1,
      status: 'active',
      billing: 'counter',
      startedOn: addMonths(day(7), -5),
      periodStart: addMonths(day(7), -1),
      current: { status: 'paid' },
      cancelAtPeriodEnd: true,
      cancelReason: 'Not shooting enough',
    },
    // 9: homed at the North store, inside its 12-month term.
    {
      plan: 3,
      customer: 13,
      location: 2,
      status: 'active',
      billing: 'counter',
      startedOn: addMonths(day(12), -3),
      periodStart: addMonths(day(12), -1),
      current: { status: 'paid' },
      guestPassesLeft: 1,
    },
    // 10: no guest passes left this quarter.
    {
      plan: 2,
      customer: 2,
      location: 2,
      status: 'active',
      billing: 'card',
      card: VISA,
      startedOn: addMonths(day(30), -3),
      periodStart: addMonths(day(30), -3),
      current: { status: 'paid' },
      guestPassesLeft: 0,
    },
  ];
}

/**
 * Plans and memberships with their charge history (signup and dues; paid, failed, due, void), the dues
 * orders and card attempts behind them, then the nightly billing run on the clock. Nothing is seeded
 * when the shop has memberships off; without card processing, card and link billing become counter.
 */
export function seedMemberships(context: SeedContext): void {
  const { core } = context;
  if (!core.state.shop.settings.memberships) return;
  const created = isoAt(context, -500 * DAY_MS);
  for (const plan of PLANS) {
    core.state.memberships.plans.insert((id) => ({
      object: 'membership_plan',
      id,
      ...plan,
      created_at: created,
      updated_at: created,
    }));
  }
  for (const seed of membershipSeeds(dateOf(context.nowMs))) insertMembership(context, seed);
  startBillingRuns(core);
}

const at = (date: string, hours = 0) => new Date(startOfDate(date) + hours * HOUR_MS).toISOString();

function insertMembership(context: SeedContext, input: MembershipSeed): void {
  const { core } = context;
  const processing = core.state.shop.settings.cardProcessing;
  const seed = processing ? input : { ...input, billing: 'counter' as const, card: undefined };
  const plan = core.state.memberships.plans.get(seed.plan)!;
  const membership = core.state.memberships.memberships.insert((id) => ({
    object: 'membership',
    id,
    number: `M-${String(1000 + id)}`,
    plan_id: plan.id,
    customer_id: seed.customer,
    location_id: seed.location,
    status: seed.status,
    billing_method: seed.billing,
    has_saved_card: Boolean(seed.card),
    price_cents: plan.price_cents,
    started_on: seed.startedOn,
    current_period_start: seed.periodStart,
    current_period_end: periodEnd(plan, seed.periodStart),
    next_bill_on: seed.nextBillOn === undefined ? nextPeriodStart(plan, seed.periodStart) : seed.nextBillOn,
    commitment_ends_on: commitmentEnd(plan, seed.startedOn),
    cancel_at_period_end: seed.cancelAtPeriodEnd ?? false,
    cancel_reason: seed.cancelReason ?? null,
    cancelled_at: seed.cancelledOn ? at(seed.cancelledOn, 16) : null,
    frozen_until: seed.frozenUntil ?? null,
    guest_passes_left:
      seed.guestPassesLeft ?? Math.max(0, plan.guest_passes_per_period - core.random.int(0, 1)),
    source: 'register',
    card_link_url: `${PAY_HOST}/m/${core.random.hex(24)}/card`,
    members: [seed.customer, ...(seed.members ?? [])].map((customerId, index) => ({
      customer_id: customerId,
      role: index === 0 ? 'primary' : 'member',
      added_at: at(seed.startedOn, 11 + index),
    })),
    created_at: at(seed.startedOn, 11),
    updated_at: [
      at(seed.startedOn, 11),
      at(seed.periodStart, 1),
      seed.cancelledOn ? at(seed.cancelledOn, 16) : '',
    ]
      .sort()
      .at(-1)!,
  }));
  core.state.memberships.extras.set(membership.id, { external_reference: null, card: seed.card ?? null });
  let start = seed.startedOn;
  while (start <= seed.periodStart) {
    const current = start === seed.periodStart;
    seedCharge(
      core,
      membership,
      plan,
      start,
      start === seed.startedOn,
      current ? seed.current : { status: 'paid' },
    );
    start = nextPeriodStart(plan, start);
  }
}

function seedCharge(
  core: SandboxCore,
  membership: MembershipRecord,
  plan: MembershipPlanRecord,
  start: string,
  signup: boolean,
  outcome: MembershipSeed['current'],
): void {
  const card = core.state.memberships.extras.get(membership.id)?.card ?? null;
  const amount = membership.price_cents + (signup ? plan.initiation_fee_cents : 0);
  const paid = outcome.status === 'paid';
  const paidAt = at(start, signup ? 11 : 1);
  const order = paid
    ? insertSeedOrder(core, {
        status: 'completed',
        source: signup || membership.billing_method === 'counter' ? 'pos' : 'membership',
        location_id: membership.location_id,
        customer_id: membership.customer_id,
        external_reference: null,
        lines: [
          {
            type: 'membership',
            product_id: plan.product_id,
            description: `${plan.name} ${signup ? 'sign-up' : 'dues'} from ${start}`,
            qty: 1,
            unit_price_cents: amount,
            total_cents: amount,
          },
        ],
        created_at: paidAt,
      })
    : null;
  const charge = insertCharge(core, membership, {
    kind: signup ? 'signup' : 'dues',
    period_start: start,
    period_end: periodEnd(plan, start),
    amount_cents: amount,
    status: outcome.status,
    due_on: start,
    attempts: outcome.attempts ?? (paid && !signup && card ? 1 : 0),
    last_error: outcome.status === 'failed' ? 'Card declined: insufficient funds' : null,
    order_id: order?.id ?? null,
    pay_url: paid || outcome.status === 'void' || membership.billing_method === 'card' ? null : payUrl(core),
    paid_at: paid ? paidAt : null,
  });
  if (!core.state.shop.settings.cardProcessing) return;
  const attempt = {
    kind: 'charge',
    purpose: 'membership',
    amountCents: amount,
    membershipChargeId: charge.id,
    customerId: membership.customer_id,
    locationId: membership.location_id,
  } as const;
  if (outcome.status === 'failed' && card) {
    for (let index = 0; index < charge.attempts; index++) {
      const tried = startOfDate(start) + [0, 3, 7][index]! * DAY_MS;
      insertCardTransaction(core, {
        ...attempt,
        mode: 'token',
        status: 'declined',
        card,
        entryMethod: 'card_on_file',
        at: tried,
      });
      membership.updated_at = new Date(tried).toISOString();
    }
  } else if (paid && order && membership.billing_method !== 'counter') {
    const viaLink = membership.billing_method === 'link' || (signup && !card);
    insertCardTransaction(core, {
      ...attempt,
      mode: signup && card ? 'terminal' : viaLink ? 'link' : 'token',
      status: 'approved',
      card: card ?? { brand: 'discover', last4: '1117' },
      entryMethod: signup && card ? 'chip' : viaLink ? 'online' : 'card_on_file',
      orderId: order.id,
      registerId: signup && card ? 1 : null,
      attached: true,
      at: Date.parse(paidAt),
    });
  }
}
