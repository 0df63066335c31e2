import { apiError, type FieldProblems, invalidState, notFound } from '../../errors.js';
import { addDays, addMonths, dateOf } from '../../state/dates.js';
import { touch } from '../../state/stamps.js';
import { type Actor, canSeeLocation, requireWritableLocation } from '../actor.js';
import { customerNamed } from '../shop/customers.js';
import type { DomainWorld } from '../world.js';
import type { MembershipChargeRecord, MembershipPlanRecord, MembershipRecord, SavedCard } from './state.js';

/** Where members save a card and pay links point (the sandbox's made-up host; nothing is served there). */
export const PAY_HOST = 'https://pay.sandbox.shop.test';
/** The reference: "charges: only on the single-record read: the last 50 charges". */
const RECENT_CHARGES = 50;
/** Statuses whose charges are still owed. */
export const UNPAID: readonly string[] = ['due', 'failed'];

/** Perks are on for active and past_due (reference section 3); guest passes need them. */
export function perksOn(membership: MembershipRecord): boolean {
  return membership.status === 'active' || membership.status === 'past_due';
}

/** The first day of the period after the one starting on `start`: interval_count x billing_interval. */
export function nextPeriodStart(plan: MembershipPlanRecord, start: string): string {
  const count = plan.interval_count;
  if (plan.billing_interval === 'year') return addMonths(start, 12 * count);
  if (plan.billing_interval === 'week') return addDays(start, 7 * count);
  if (plan.billing_interval === 'day') return addDays(start, count);
  return addMonths(start, count);
}

/** The last day (inclusive) of the period starting on `start`. */
export function periodEnd(plan: MembershipPlanRecord, start: string): string {
  return addDays(nextPeriodStart(plan, start), -1);
}

/** The last day of the minimum term, or null without one. */
export function commitmentEnd(plan: MembershipPlanRecord, startedOn: string): string | null {
  return plan.commitment_months > 0 ? addDays(addMonths(startedOn, plan.commitment_months), -1) : null;
}

/** The day a scheduled cancellation takes effect after: the paid period's end, or the term's if later. */
export function scheduledEnd(membership: MembershipRecord): string | null {
  const ends = [membership.current_period_end, membership.commitment_ends_on].filter(
    (date): date is string => date !== null,
  );
  return ends.sort().at(-1) ?? null;
}

export function renderMembership(membership: MembershipRecord): MembershipRecord {
  return { ...membership, members: membership.members.map((member) => ({ ...member })) };
}

/** A membership's charges, newest first, at most the last 50. */
export function chargesOf(world: DomainWorld, membershipId: number): MembershipChargeRecord[] {
  const { charges, chargeOwner } = world.state.memberships;
  return charges
    .filter((charge) => chargeOwner.get(charge.id) === membershipId)
    .sort((a, b) => b.id - a.id)
    .slice(0, RECENT_CHARGES)
    .map((charge) => ({ ...charge }));
}

/** The single-record read (and the create answer): the membership with its last 50 charges. */
export function renderMembershipDetail(
  world: DomainWorld,
  membership: MembershipRecord,
): Record<string, unknown> {
  return { ...renderMembership(membership), charges: chargesOf(world, membership.id) };
}

/** membership.updated / membership.payment_failed: the membership plus change and detail. */
export function recordMembershipChange(
  world: DomainWorld,
  type: 'membership.updated' | 'membership.payment_failed',
  membership: MembershipRecord,
  change: string,
  detail: string | null,
): void {
  world.events.record(type, { ...renderMembership(membership), change, detail });
}

/** A pay link for an unpaid charge; only a shop with card processing has them. */
export function payUrl(world: DomainWorld): string | null {
  return world.state.shop.settings.cardProcessing ? `${PAY_HOST}/c/${world.random.hex(24)}` : null;
}

/** Adds a charge to a membership. */
export function insertCharge(
  world: DomainWorld,
  membership: MembershipRecord,
  charge: Omit<MembershipChargeRecord, 'object' | 'id'>,
): MembershipChargeRecord {
  const { charges, chargeOwner } = world.state.memberships;
  const row = charges.insert((id) => ({ object: 'membership_charge', id, ...charge }));
  chargeOwner.set(row.id, membership.id);
  return row;
}

/** What a sign-up is made of; the caller has checked every rule. */
export interface NewMembership {
  readonly customerId: number;
  readonly plan: MembershipPlanRecord;
  readonly billingMethod: MembershipRecord['billing_method'];
  readonly paid: boolean;
  readonly locationId: number;
  readonly externalReference: string | null;
  readonly source: string;
  readonly card?: SavedCard | null;
  /** Family members besides the primary, each with role member. */
  readonly family?: readonly number[];
}

/**
 * Signs someone up (reference section 3): paid -> active with the signup charge paid and no order;
 * otherwise pending with the signup charge (first period plus initiation fee) due. Fires
 * membership.created.
 */
export function signUp(world: DomainWorld, input: NewMembership): MembershipRecord {
  const now = world.clock.iso();
  const today = dateOf(world.clock.nowMs());
  const { plan } = input;
  const membership = world.state.memberships.memberships.insert((id) => ({
    object: 'membership',
    id,
    number: `M-${String(1000 + id)}`,
    plan_id: plan.id,
    customer_id: input.customerId,
    location_id: input.locationId,
    status: input.paid ? 'active' : 'pending',
    billing_method: input.billingMethod,
    has_saved_card: Boolean(input.card),
    price_cents: plan.price_cents,
    started_on: today,
    current_period_start: today,
    current_period_end: periodEnd(plan, today),
    next_bill_on: nextPeriodStart(plan, today),
    commitment_ends_on: commitmentEnd(plan, today),
    cancel_at_period_end: false,
    cancel_reason: null,
    cancelled_at: null,
    frozen_until: null,
    guest_passes_left: plan.guest_passes_per_period,
    source: input.source,
    card_link_url: `${PAY_HOST}/m/${world.random.hex(24)}/card`,
    members: [
      { customer_id: input.customerId, role: 'primary', added_at: now },
      ...(input.family ?? []).map((customerId) => ({
        customer_id: customerId,
        role: 'member' as const,
        added_at: now,
      })),
    ],
    created_at: now,
    updated_at: now,
  }));
  world.state.memberships.extras.set(membership.id, {
    external_reference: input.externalReference,
    card: input.card ?? null,
  });
  insertCharge(world, membership, {
    kind: 'signup',
    period_start: today,
    period_end: periodEnd(plan, today),
    amount_cents: plan.price_cents + plan.initiation_fee_cents,
    status: input.paid ? 'paid' : 'due',
    due_on: today,
    attempts: 0,
    last_error: null,
    order_id: null,
    pay_url: input.paid ? null : payUrl(world),
    paid_at: input.paid ? now : null,
  });
  if (!input.paid && input.billingMethod === 'link') emailPayLink(world, membership, 'Complete your sign-up');
  world.events.record('membership.created', renderMembership(membership));
  return membership;
}

/** Link billing: the member gets the pay link by email. */
export function emailPayLink(world: DomainWorld, membership: MembershipRecord, subject: string): void {
  const customer = world.state.shop.customers.get(membership.customer_id);
  world.state.shop.outbox.push({
    to: customer?.email ?? null,
    kind: 'membership_pay_link',
    subject: `${subject}: membership ${membership.number}`,
    sent_at: world.clock.iso(),
  });
}

/**
 * Cancels a membership: now (owed amounts voided) with at_period_end false, else at the later of the paid
 * period and the minimum term. An ended membership is 409 INVALID_STATE.
 */
export function cancelMembership(
  world: DomainWorld,
  membership: MembershipRecord,
  options: { reason: string | null; atPeriodEnd: boolean },
): MembershipRecord {
  if (membership.status === 'cancelled' || membership.status === 'expired') {
    throw invalidState('membership', membership.status, 'cancelled');
  }
  const now = world.clock.iso();
  if (!options.atPeriodEnd) {
    endNow(world, membership, now, options.reason);
    recordMembershipChange(world, 'membership.updated', membership, 'cancelled', options.reason);
    return membership;
  }
  Object.assign(membership, { cancel_at_period_end: true, cancel_reason: options.reason });
  touch(membership, world.clock.nowMs());
  // Not a value the reference shows: the sandbox names the scheduled cancellation cancel_scheduled.
  recordMembershipChange(
    world,
    'membership.updated',
    membership,
    'cancel_scheduled',
    `Ends after ${scheduledEnd(membership)}`,
  );
  return membership;
}

/** Ends a membership at once; anything owed is voided. */
export function endNow(
  world: DomainWorld,
  membership: MembershipRecord,
  at: string,
  reason: string | null,
): void {
  for (const charge of world.state.memberships.charges.all()) {
    if (
      world.state.memberships.chargeOwner.get(charge.id) === membership.id &&
      UNPAID.includes(charge.status)
    ) {
      Object.assign(charge, { status: 'void', pay_url: null });
    }
  }
  Object.assign(membership, {
    status: 'cancelled',
    cancel_at_period_end: false,
    cancel_reason: reason ?? membership.cancel_reason,
    cancelled_at: at,
    next_bill_on: null,
  });
  touch(membership, Date.parse(at));
}

/**
 * Uses one guest pass of this period. Perks must be on (active or past_due; otherwise 409 INVALID_STATE,
 * the sandbox's reading); none left is 422 NO_GUEST_PASSES. The reference lists no event for it.
 */
export function useGuestPass(
  world: DomainWorld,
  membership: MembershipRecord,
  note: string | null,
): MembershipRecord {
  if (!perksOn(membership)) throw invalidState('membership', membership.status, 'used for a guest pass');
  if (membership.guest_passes_left <= 0) {
    throw apiError('NO_GUEST_PASSES', 'No guest passes left this period', {
      guest_passes_left: 0,
      resets_on: membership.next_bill_on,
    });
  }
  const now = world.clock.iso();
  membership.guest_passes_left -= 1;
  touch(membership, world.clock.nowMs());
  world.state.memberships.guestPasses.push({ membership_id: membership.id, note, used_at: now });
  return membership;
}

const LIVE: readonly string[] = ['pending', 'active', 'past_due', 'frozen'];

/** Reads and guest passes work across every store (reference section 4), so reads ignore location limits. */
export function membershipAt(world: DomainWorld, id: number): MembershipRecord {
  const membership = world.state.memberships.memberships.get(id);
  if (!membership) throw notFound('membership');
  return membership;
}

/** The actor's location for homing: its one location, the main one if it may see it, else its lowest. */
function homeLocation(world: DomainWorld, actor: Actor): number {
  const main = world.state.shop.mainLocationId;
  if (actor.locations === null || actor.locations.has(main)) return main;
  return Math.min(...actor.locations);
}

/** Whether the customer is one of the membership's members (the primary or family). */
export function isMember(membership: MembershipRecord, customerId: number): boolean {
  return membership.members.some((member) => member.customer_id === customerId);
}

/** Whether a location-limited actor may change this membership: only those homed at its locations. */
export function mayChange(actor: Actor, membership: MembershipRecord): boolean {
  return canSeeLocation(actor, membership.location_id);
}

/** MEMBERSHIPS_OFF when the shop has memberships turned off. */
export function requireMembershipsOn(world: DomainWorld): void {
  if (!world.state.shop.settings.memberships) {
    throw apiError('MEMBERSHIPS_OFF', 'This shop has memberships turned off');
  }
}

/**
 * Who and what a sign-up names, checked against the shop as its fields are read: the customer, the family
 * members (`members`, each a customer, none named twice or as the primary) and the plan. Unknown ones are
 * input errors on their field (reported on `problems`); returns the plan when it exists.
 */
export function signUpParties(
  world: DomainWorld,
  input: { customerId: number | undefined; planId: number | undefined; family: readonly number[] },
  problems: FieldProblems,
): MembershipPlanRecord | undefined {
  const { customerId, planId, family } = input;
  if (customerId !== undefined) customerNamed(world, customerId, problems);
  for (const [index, member] of family.entries()) {
    if (!world.state.shop.customers.get(member)) problems.fail('members', `${member} is not a customer`);
    else if (member === customerId || family.indexOf(member) !== index) {
      problems.fail('members', `${member} is named twice (the primary member is customer_id)`);
    }
  }
  const plan = planId === undefined ? undefined : world.state.memberships.plans.get(planId);
  if (planId !== undefined && !plan) problems.fail('plan_id', 'is not a membership plan of this shop');
  return plan;
}

/** A sign-up as the API asks for it, its fields already read and checked against the shop. */
export interface ApiSignUp {
  readonly customerId: number;
  readonly plan: MembershipPlanRecord;
  readonly billingMethod: 'link' | 'counter';
  readonly paid: boolean;
  readonly locationId: number | undefined;
  readonly externalReference: string | null;
  readonly family: readonly number[];
}

/**
 * POST /v1/memberships's rule, every check before anything is written: the same external_reference again
 * is the membership it made (`replayed`); then the location, PLAN_ARCHIVED, CARD_PROCESSING_OFF,
 * ALREADY_MEMBER and MEMBERSHIP_FULL; then the sign-up, homed at the actor's location unless one is named.
 */
export function signUpByApi(
  world: DomainWorld,
  actor: Actor,
  input: ApiSignUp,
): { membership: MembershipRecord; replayed: boolean } {
  const { memberships, extras } = world.state.memberships;
  const { customerId, plan, billingMethod, paid, locationId, externalReference, family } = input;
  if (externalReference !== null) {
    const existing = memberships.find((row) => extras.get(row.id)?.external_reference === externalReference);
    if (existing) return { membership: existing, replayed: true };
  }
  if (locationId !== undefined) requireWritableLocation(world, actor, locationId);
  if (plan.status === 'archived') {
    throw apiError('PLAN_ARCHIVED', `The plan ${plan.name} is archived`, {
      plan_id: plan.id,
    });
  }
  if (billingMethod === 'link' && !world.state.shop.settings.cardProcessing) {
    throw apiError('CARD_PROCESSING_OFF', 'Link billing needs card processing, which this shop has off');
  }
  const people = [customerId, ...family];
  const current = memberships.find(
    (row) =>
      row.plan_id === plan.id && LIVE.includes(row.status) && people.some((person) => isMember(row, person)),
  );
  if (current) {
    throw apiError('ALREADY_MEMBER', 'The customer is already on this plan', {
      membership_id: current.id,
    });
  }
  // The reference names MEMBERSHIP_FULL without status or condition; the sandbox's reading: more people
  // than the plan's max_members, answered 409 like the other conflicts with existing state.
  if (people.length > plan.max_members) {
    throw apiError('MEMBERSHIP_FULL', `The plan ${plan.name} takes at most ${plan.max_members} members`, {
      max_members: plan.max_members,
      members: people.length,
    });
  }
  const membership = signUp(world, {
    customerId,
    plan,
    billingMethod,
    paid,
    locationId: locationId ?? homeLocation(world, actor),
    externalReference,
    source: 'api',
    family,
  });
  return { membership, replayed: false };
}
