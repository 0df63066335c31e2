import { notFound } from '../../errors.js';
import { FieldReader, pathId } from '../../http/fields.js';
import { listRoute } from '../../http/list.js';
import { routeFor } from '../../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../http/route.js';
import {
  cancelMembership,
  isMember,
  mayChange,
  membershipAt,
  renderMembership,
  renderMembershipDetail,
  requireMembershipsOn,
  signUpByApi,
  signUpParties,
  useGuestPass,
} from './memberships.js';
import type { MembershipPlanRecord, MembershipRecord } from './state.js';

/** POST /v1/memberships: every check before anything is written (reference section 4). */
function create(context: RouteContext) {
  const { sandbox } = context;
  requireMembershipsOn(sandbox);
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
  const plan = signUpParties(sandbox, { customerId, planId, family }, reader);
  reader.done();
  const { membership, replayed } = signUpByApi(sandbox, context.key, {
    customerId: customerId!,
    plan: plan!,
    billingMethod: billingMethod as 'link' | 'counter',
    paid,
    locationId,
    externalReference,
    family,
  });
  // The natural idempotency of external_reference: the same membership again, 200 rather than 201.
  if (replayed) return ok(renderMembershipDetail(sandbox, membership));
  return created(renderMembershipDetail(sandbox, membership));
}

/** Membership plans and memberships (reference sections 3 and 4). */
export const membershipRoutes: readonly RouteDefinition[] = [
  listRoute<MembershipPlanRecord>('membershipPlans.list', {
    rows: (sandbox) => sandbox.state.memberships.plans,
    // An unknown status value gives an empty list: the reference refuses unknown values only on rentals.
    params: [{ name: 'status', field: 'status' }],
  }),
  listRoute<MembershipRecord>('memberships.list', {
    rows: (sandbox) => sandbox.state.memberships.memberships,
    params: [
      { name: 'customer_id', match: (row, customerId: number) => isMember(row, customerId) },
      { name: 'plan_id', field: 'plan_id' },
      { name: 'status', field: 'status' },
    ],
    changedAt: 'updated_at',
    render: (row) => renderMembership(row),
  }),
  { ...routeFor('memberships.create'), handle: create },
  {
    ...routeFor('memberships.retrieve'),
    handle: (context) =>
      ok(
        renderMembershipDetail(
          context.sandbox,
          membershipAt(context.sandbox, pathId(context.params, 'membership')),
        ),
      ),
  },
  {
    ...routeFor('memberships.cancel'),
    handle: (context) => {
      const reader = FieldReader.body(context.body);
      const reason = reader.string('reason') ?? null;
      const atPeriodEnd = reader.boolean('at_period_end') ?? true;
      reader.done();
      const membership = membershipAt(context.sandbox, pathId(context.params, 'membership'));
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
      return ok(
        renderMembership(
          useGuestPass(
            context.sandbox,
            membershipAt(context.sandbox, pathId(context.params, 'membership')),
            note,
          ),
        ),
      );
    },
  },
];
