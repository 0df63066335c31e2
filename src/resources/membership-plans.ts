import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { MembershipPlansListParams } from '../generated/params.js';
import type { MembershipPlan } from '../generated/schemas.js';

/** `shop.membershipPlans`: the plans people can join. */
export class MembershipPlans extends APIResource {
  /**
   * Lists the shop's membership plans. Members keep the price they joined at even if a plan changes.
   *
   * Permission: `memberships:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * const plans = await shop.membershipPlans.list({ status: 'active' }).toArray();
   */
  list(params?: MembershipPlansListParams, options?: RequestOptions): PagePromise<MembershipPlan> {
    return this._client.list(operations['membershipPlans.list'], { query: params }, options);
  }
}
