import {
  cancelMembership,
  renderMembership,
  renderMembershipDetail,
  signUp,
  useGuestPass,
} from '../domain/memberships.js';
import { apiError, notFound } from '../errors.js';
import { canSeeLocation, requireWritableLocation } from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import type { ApiKey } from '../http/keys.js';
import { listRoute } from '../http/list.js';
import { routeFor } from '../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../http/route.js';
import type { MembershipPlanRecord, MembershipRecord } from '../state/memberships.js';

const LIVE: readonly string[] = ['pending', 'active', 'past_due', 'frozen'];

/** Reads and guest passes work across every store (reference section 4), so reads ignore location limits. */
function membershipAt(context: RouteContext): MembershipRecord {
  const membership = context.sandbox.state.memberships.memberships.get(pathId(context.params, 'membership'));
  if (!membership) throw notFound('membership');
  return membership;
}

/** The key's location for homing: its one location, the main one if it may see it, else its lowest. */
function homeLocation(context: RouteContext): number {
  const { key } = context;
  const main = context.sandbox.state.shop.mainLocationId;
  if (key.locations === null || key.locations.has(main)) return main;
  return Math.min(...key.locations);
}

function isMember(membership: MembershipRecord, customerId: number): boolean {
  return membership.members.some((member) => member.customer_id === customerId);
}

/** POST /v1/memberships: every check before anything is written (reference section 4). */
function create(context: RouteContext) {
  const { sandbox } = context;
  const { memberships, plans, extras } = sandbox.state.memberships;
  if (!sandbox.state.shop.settings.memberships) {
    throw apiError('MEMBERSHIPS_OFF', 'This shop has memberships turned off');
  }
  const reader = FieldReader.body(context.body);
  const customerId = reader.integer('customer_id', { required: true });
  const planId = reader.integer('plan_id', { required: true });
  const billingMethod = reader.string('billing_method', { required: true, oneOf: ['link', 'counter'] });
  const paid = reader.boolean('paid') ?? false;
  const locationId = reader.integer('location_id');
  const externalReference = reader.string('external_reference') ?? null;
  // Not a field of the reference: family members signed up with the primary (the sandbox's guess), the one
  // way a sign-up can go past the plan's max_members and meet MEMBERSHIP_FULL.
  const family = reader.integerList('members') ?? [];
  if (customerId !== undefined && !sandbox.state.shop.customers.get(customerId)) {
    reader.fail('customer_id', 'is not a customer of this shop');
  }
  for (const [index, member] of family.entries()) {
    if (!sandbox.state.shop.customers.get(member)) reader.fail('members', `${member} is not a customer`);
    else if (member === customerId || family.indexOf(member) !== index) {
      reader.fail('members', `${member} is named twice (the primary member is customer_id)`);
    }
  }
  const plan = planId === undefined ? undefined : plans.get(planId);
  if (planId !== undefined && !plan) reader.fail('plan_id', 'is not a membership plan of this shop');
  reader.done();
  if (externalReference !== null) {
    const existing = memberships.find((row) => extras.get(row.id)?.external_reference === externalReference);
    // The natural idempotency of external_reference: the same membership again, 200 rather than 201.
    if (existing) return ok(renderMembershipDetail(sandbox, existing));
  }
  if (locationId !== undefined) requireWritableLocation(context, locationId);
  if (plan!.status === 'archived') {
    throw apiError('PLAN_ARCHIVED', `The plan ${plan!.name} is archived`, {
      plan_id: plan!.id,
    });
  }
  if (billingMethod === 'link' && !sandbox.state.shop.settings.cardProcessing) {
    throw apiError('CARD_PROCESSING_OFF', 'Link billing needs card processing, which this shop has off');
  }
  const people = [customerId!, ...family];
  const current = memberships.find(
    (row) =>
      row.plan_id === plan!.id && LIVE.includes(row.status) && people.some((person) => isMember(row, person)),
  );
  if (current) {
    throw apiError('ALREADY_MEMBER', 'The customer is already on this plan', {
      membership_id: current.id,
    });
  }
  // The reference names MEMBERSHIP_FULL without status or condition; the sandbox's reading: more people
  // than the plan's max_members, answered 409 like the other conflicts with existing state.
  if (people.length > plan!.max_members) {
    throw apiError('MEMBERSHIP_FULL', `The plan ${plan!.name} takes at most ${plan!.max_members} members`, {
      max_members: plan!.max_members,
      members: people.length,
    });
  }
  const membership = signUp(sandbox, {
    customerId: customerId!,
    plan: plan!,
    billingMethod: billingMethod as 'link' | 'counter',
    paid,
    locationId: locationId ?? homeLocation(context),
    externalReference,
    source: 'api',
    family,
  });
  return created(renderMembershipDetail(sandbox, membership));
}

/** Whether a location-limited key may change this membership: only those homed at its locations. */
function mayChange(key: ApiKey, membership: MembershipRecord): boolean {
  return canSeeLocation(key, membership.location_id);
}

/** Membership plans and memberships (reference sections 3 and 4). */
export const membershipRoutes: readonly RouteDefinition[] = [
  listRoute<MembershipPlanRecord>('membershipPlans.list', {
    rows: (sandbox) => sandbox.state.memberships.plans,
    // An unknown status value gives an empty list: the reference refuses unknown values only on rentals.
    params: [{ name: 'status', kind: 'string', field: 'status' }],
  }),
  listRoute<MembershipRecord>('memberships.list', {
    rows: (sandbox) => sandbox.state.memberships.memberships,
    params: [
      { name: 'customer_id', kind: 'integer', match: (row, customerId: number) => isMember(row, customerId) },
      { name: 'plan_id', kind: 'integer', field: 'plan_id' },
      { name: 'status', kind: 'string', field: 'status' },
    ],
    changedAt: 'updated_at',
    render: (row) => renderMembership(row),
  }),
  { ...routeFor('memberships.create'), handle: create },
  {
    ...routeFor('memberships.retrieve'),
    handle: (context) => ok(renderMembershipDetail(context.sandbox, membershipAt(context))),
  },
  {
    ...routeFor('memberships.cancel'),
    handle: (context) => {
      const reader = FieldReader.body(context.body);
      const reason = reader.string('reason') ?? null;
      const atPeriodEnd = reader.boolean('at_period_end') ?? true;
      reader.done();
      const membership = membershipAt(context);
      if (!mayChange(context.key, membership)) throw notFound('membership');
      return ok(renderMembership(cancelMembership(context.sandbox, membership, { reason, atPeriodEnd })));
    },
  },
  {
    ...routeFor('memberships.useGuestPass'),
    handle: (context) => {
      const reader = FieldReader.body(context.body);
      const note = reader.string('note') ?? null;
      reader.done();
      // The response is not shown in the reference: the sandbox answers with the membership after the pass.
      return ok(renderMembership(useGuestPass(context.sandbox, membershipAt(context), note)));
    },
  },
];
