import { notFound } from '../../errors.js';
import { pathId } from '../../http/fields.js';
import { listRoute } from '../../http/list.js';
import { routeFor } from '../../http/operations.js';
import { created, ok, type RouteDefinition } from '../../http/route.js';
import { bodyRoute } from '../../http/rules.js';
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
const create = bodyRoute(
  'memberships.create',
  // Not a field of the reference: family members signed up with the primary (the sandbox's guess), the one
  // way a sign-up can go past the plan's max_members and meet MEMBERSHIP_FULL.
  { members: { type: 'array', items: { type: 'integer' } } },
  (context, body, fields) => {
    const { sandbox } = context;
    requireMembershipsOn(sandbox);
    const family = body.members ?? [];
    const plan = signUpParties(
      sandbox,
      { customerId: body.customer_id, planId: body.plan_id, family },
      fields,
    );
    fields.done();
    const { membership, replayed } = signUpByApi(sandbox, context.key, {
      customerId: body.customer_id!,
      plan: plan!,
      billingMethod: body.billing_method!,
      paid: body.paid ?? false,
      locationId: body.location_id,
      externalReference: body.external_reference ?? null,
      family,
    });
    // The natural idempotency of external_reference: the same membership again, 200 rather than 201.
    if (replayed) return ok(renderMembershipDetail(sandbox, membership));
    return created(renderMembershipDetail(sandbox, membership));
  },
);

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
  create,
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
  bodyRoute('memberships.cancel', {}, (context, body, fields) => {
    fields.done();
    const membership = membershipAt(context.sandbox, pathId(context.params, 'membership'));
    if (!mayChange(context.key, membership)) throw notFound('membership');
    const change = { reason: body.reason ?? null, atPeriodEnd: body.at_period_end ?? true };
    return ok(renderMembership(cancelMembership(context.sandbox, membership, change)));
  }),
  bodyRoute('memberships.useGuestPass', {}, (context, body, fields) => {
    fields.done();
    const membership = membershipAt(context.sandbox, pathId(context.params, 'membership'));
    // The response is not shown in the reference: the sandbox answers with the membership after the pass.
    return ok(renderMembership(useGuestPass(context.sandbox, membership, body.note ?? null)));
  }),
];
