import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type {
  MembershipsCancelParams,
  MembershipsCreateParams,
  MembershipsListParams,
  MembershipsUseGuestPassParams,
} from '../generated/params.js';
import type { GuestPassResult, Membership, MembershipDetail } from '../generated/schemas.js';

/** `shop.memberships`: sign-ups, reads, cancellations and guest passes. */
export class Memberships extends APIResource {
  /**
   * Lists memberships, oldest first. `customer_id` matches the primary member or a family member. List
   * items carry no charges (retrieve one membership for them). Reads work across every store.
   *
   * Permission: `memberships:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * for await (const m of shop.memberships.list({ status: 'past_due' })) console.log(m.number, m.next_bill_on);
   */
  list(params?: MembershipsListParams, options?: RequestOptions): PagePromise<Membership> {
    return this._client.list(operations['memberships.list'], { query: params }, options);
  }

  /**
   * Reads one membership with `charges`, its last 50 charges.
   *
   * Permission: `memberships:read`.
   * Errors: 404 `NOT_FOUND`.
   * @example
   * const membership = await shop.memberships.retrieve(3100);
   * const unpaid = membership.charges.filter((c) => c.status === 'due' || c.status === 'failed');
   */
  retrieve(id: number, options?: RequestOptions): APIPromise<MembershipDetail> {
    return this._client.request(operations['memberships.retrieve'], { path: { id } }, options);
  }

  /**
   * Signs a customer up for an active plan; resolves to the membership with its charges. `paid: true`
   * means the first period was paid on your channel: the membership starts active and no order is
   * created; otherwise it starts pending until the first payment. Sending the same
   * `external_reference` again returns the same membership.
   *
   * Permission: `memberships:write`.
   * Errors: 409 `ALREADY_MEMBER` (already on this plan), 422 `PLAN_ARCHIVED`, 422 `MEMBERSHIPS_OFF`,
   * 422 `CARD_PROCESSING_OFF` (link billing without card processing), 404 `NOT_FOUND` (inferred, not listed
   * by the reference: a location the key cannot see, as on range bookings), 400 `VALIDATION_ERROR`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`. `MEMBERSHIP_FULL` also exists; the reference
   * shows neither its status nor its condition.
   * @example
   * const membership = await shop.memberships.create({
   *   customer_id: 8801,
   *   plan_id: 4,
   *   billing_method: 'counter',
   *   paid: true,
   *   external_reference: 'crm-5521',
   * });
   */
  create(params: MembershipsCreateParams, options?: RequestOptions): APIPromise<MembershipDetail> {
    return this._client.request(operations['memberships.create'], { body: params }, options);
  }

  /**
   * Cancels a membership. `at_period_end: false` ends it now and voids anything owed; `true` or absent
   * keeps it until the paid period (or the minimum term, if later) ends, with `cancel_at_period_end`
   * set. A location-limited key can cancel only memberships homed at its locations. The reference does
   * not spell out the response: it is typed as the membership.
   *
   * Permission: `memberships:write`.
   * Errors: 404 `NOT_FOUND` (also outside the key's locations), 400 `VALIDATION_ERROR`,
   * 409 `IDEMPOTENCY_IN_PROGRESS`, 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * await shop.memberships.cancel(3100, { reason: 'Moving away', at_period_end: true });
   */
  cancel(id: number, params?: MembershipsCancelParams, options?: RequestOptions): APIPromise<Membership> {
    return this._client.request(operations['memberships.cancel'], { path: { id }, body: params }, options);
  }

  /**
   * Uses one of the member's guest passes for this period (the allowance resets every period); works
   * across every store. The reference does not show the response: it is typed loosely, with
   * `guest_passes_left` where the server sends it.
   *
   * Permission: `memberships:write`.
   * Errors: 422 `NO_GUEST_PASSES`, 404 `NOT_FOUND`, 400 `VALIDATION_ERROR`, 409 `IDEMPOTENCY_IN_PROGRESS`,
   * 422 `IDEMPOTENCY_MISMATCH`.
   * @example
   * const result = await shop.memberships.useGuestPass(3100, { note: 'Brought a friend, lane 4' });
   */
  useGuestPass(
    id: number,
    params?: MembershipsUseGuestPassParams,
    options?: RequestOptions,
  ): APIPromise<GuestPassResult> {
    return this._client.request(
      operations['memberships.useGuestPass'],
      { path: { id }, body: params },
      options,
    );
  }
}
