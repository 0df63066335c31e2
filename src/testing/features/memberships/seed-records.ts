import { addDays, addMonths } from '../../state/dates.js';
import type {
  MembershipChargeRecord,
  MembershipPlanRecord,
  MembershipRecord,
  MembershipStatus,
  SavedCard,
} from './state.js';

// What the seeded shop's memberships are, as data; seed.ts inserts them with their history.

/** A plan as seeded; ids and times are given when it is inserted. */
export type PlanSeed = Omit<MembershipPlanRecord, 'object' | 'id' | 'created_at' | 'updated_at'>;

/** Plans 1 to 4: monthly, quarterly (month x 3) with a 6-month term, a 12-month league, an archived one. */
export const PLANS: readonly PlanSeed[] = [
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

/** One seeded membership: its plan, people, state and where its billing stands today. */
export interface MembershipSeed {
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
export function membershipSeeds(today: string): MembershipSeed[] {
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
