import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/** membership_plan of reference section 2 (the spec's MembershipPlan), with closed status values. */
export type MembershipPlanRecord = SandboxRecord<
  Api.MembershipPlan,
  { status: 'active' | 'archived'; billing_interval: string }
>;

/** One person on a membership: the primary member or a family member. */
export interface MembershipMember {
  customer_id: number;
  role: 'primary' | 'member';
  added_at: string;
}

/** The membership statuses of reference section 3. */
export type MembershipStatus = 'pending' | 'active' | 'past_due' | 'frozen' | 'expired' | 'cancelled';

/** membership of reference section 2, without `charges` (the single-record read adds them). */
export type MembershipRecord = SandboxRecord<
  Api.Membership,
  {
    status: MembershipStatus;
    billing_method: 'card' | 'link' | 'counter';
    source: string;
    members: MembershipMember[];
  }
>;

/** membership_charge of reference section 2. */
export type MembershipChargeRecord = SandboxRecord<
  Api.MembershipCharge,
  { kind: 'signup' | 'dues'; status: 'due' | 'failed' | 'paid' | 'waived' | 'void' }
>;

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
