import { Table } from './table.js';

/** membership_plan of reference section 2, field by field. */
export interface MembershipPlanRecord {
  object: 'membership_plan';
  id: number;
  name: string;
  description: string | null;
  perks: string;
  status: 'active' | 'archived';
  price_cents: number;
  billing_interval: string;
  interval_count: number;
  initiation_fee_cents: number;
  commitment_months: number;
  max_members: number;
  guest_passes_per_period: number;
  customer_group_id: number | null;
  product_id: number | null;
  taxable: boolean;
  created_at: string;
  updated_at: string;
}

/** One person on a membership: the primary member or a family member. */
export interface MembershipMember {
  customer_id: number;
  role: 'primary' | 'member';
  added_at: string;
}

/** The membership statuses of reference section 3. */
export type MembershipStatus = 'pending' | 'active' | 'past_due' | 'frozen' | 'expired' | 'cancelled';

/** membership of reference section 2, without `charges` (the single-record read adds them). */
export interface MembershipRecord {
  object: 'membership';
  id: number;
  number: string;
  plan_id: number;
  customer_id: number;
  location_id: number;
  status: MembershipStatus;
  billing_method: 'card' | 'link' | 'counter';
  has_saved_card: boolean;
  price_cents: number;
  started_on: string | null;
  current_period_start: string | null;
  current_period_end: string | null;
  next_bill_on: string | null;
  commitment_ends_on: string | null;
  cancel_at_period_end: boolean;
  cancel_reason: string | null;
  cancelled_at: string | null;
  frozen_until: string | null;
  guest_passes_left: number;
  source: string;
  card_link_url: string;
  members: MembershipMember[];
  created_at: string;
  updated_at: string;
}

/** membership_charge of reference section 2. */
export interface MembershipChargeRecord {
  object: 'membership_charge';
  id: number;
  kind: 'signup' | 'dues';
  period_start: string;
  period_end: string;
  amount_cents: number;
  status: 'due' | 'failed' | 'paid' | 'waived' | 'void';
  due_on: string;
  attempts: number;
  last_error: string | null;
  order_id: number | null;
  pay_url: string | null;
  paid_at: string | null;
}

/** A saved card on file: what the sandbox needs to charge dues. `declines` makes every attempt fail. */
export interface SavedCard {
  brand: string;
  last4: string;
  declines: boolean;
}

/** What the shop knows about a membership that the record does not show. */
export interface MembershipExtras {
  /** The partner's id from POST /v1/memberships: sending it again returns the same membership. */
  external_reference: string | null;
  card: SavedCard | null;
}

/** A guest pass used (the reference shows no record for it; the sandbox keeps a log). */
export interface GuestPassUse {
  membership_id: number;
  note: string | null;
  used_at: string;
}

/** Plans, memberships and their charges. */
export interface MembershipState {
  plans: Table<MembershipPlanRecord>;
  memberships: Table<MembershipRecord>;
  charges: Table<MembershipChargeRecord>;
  /** The charge record does not name its membership: charge id -> membership id. */
  chargeOwner: Map<number, number>;
  extras: Map<number, MembershipExtras>;
  guestPasses: GuestPassUse[];
}

export function createMembershipState(): MembershipState {
  return {
    plans: new Table(),
    memberships: new Table(),
    charges: new Table(),
    chargeOwner: new Map(),
    extras: new Map(),
    guestPasses: [],
  };
}
