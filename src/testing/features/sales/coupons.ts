import type { SandboxCore } from '../../core.js';
import { apiError, notFound, validationError } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import { type Actor, canSeeLocation, requireWritableLocation } from '../actor.js';
import type { CouponRecord } from './promotions-state.js';

/** The channel values: the reference shows store_online; all and in_store are the sandbox's guesses. */
export const COUPON_CHANNELS = ['all', 'in_store', 'store_online'] as const;

/** The coupons that still exist (deleted ones answer 404). */
export function liveCoupons(core: SandboxCore): CouponRecord[] {
  return core.state.promotions.coupons.filter((row) => !core.state.promotions.deletedCoupons.has(row.id));
}

/**
 * The rules a saved coupon must meet (reference section 9, 2026-10-04): its code is unused (409
 * CODE_TAKEN, compared without case), and a location coupon on channel store_online needs a location
 * with an online storefront (400 VALIDATION_ERROR on location_id).
 */
export function checkCoupon(
  core: SandboxCore,
  coupon: Omit<CouponRecord, 'id'> & { id: number | null },
): void {
  if (coupon.channel === 'store_online' && coupon.location_id !== null) {
    const location = core.state.shop.locations.get(coupon.location_id);
    if (location && location.storefront_location_id === null) {
      throw validationError({
        location_id: ['has no online storefront: a store_online coupon cannot be limited to it'],
      });
    }
  }
  if ((coupon.percent_off === null) === (coupon.amount_off_cents === null)) {
    throw validationError({ percent_off: ['send exactly one of percent_off and amount_off_cents'] });
  }
  if (coupon.starts_at !== null && coupon.ends_at !== null && coupon.ends_at <= coupon.starts_at) {
    throw validationError({ ends_at: ['must be after starts_at'] });
  }
  const code = coupon.code.toUpperCase();
  if (liveCoupons(core).some((row) => row.id !== coupon.id && row.code.toUpperCase() === code)) {
    throw apiError('CODE_TAKEN', `The coupon code ${coupon.code} is in use`, {
      code: coupon.code,
    });
  }
}

/** What a coupon write sets: every field but the record's own (object, id, stamps). */
export type CouponFields = Omit<CouponRecord, 'object' | 'id' | 'created_at' | 'updated_at'>;

/** A coupon at a location the actor cannot see answers 404; shop-wide coupons (location_id null) do not. */
export function findCoupon(core: SandboxCore, actor: Actor, id: number): CouponRecord {
  const coupon = liveCoupons(core).find((row) => row.id === id);
  if (!coupon || !canSeeLocation(actor, coupon.location_id)) throw notFound('coupon');
  return coupon;
}

/** Creates a coupon (coupon.created) after the location and the coupon rules are checked. */
export function createCoupon(core: SandboxCore, actor: Actor, fields: CouponFields): CouponRecord {
  if (fields.location_id !== null) requireWritableLocation(core, actor, fields.location_id);
  checkCoupon(core, { object: 'coupon', id: null, created_at: '', updated_at: '', ...fields });
  const now = core.clock.iso();
  const coupon = core.state.promotions.coupons.insert((id) => ({
    object: 'coupon',
    id,
    ...fields,
    created_at: now,
    updated_at: now,
  }));
  core.events.record('coupon.created', coupon);
  return { ...coupon };
}

/** Changes a coupon (coupon.updated) after the location and the coupon rules are checked. */
export function updateCoupon(
  core: SandboxCore,
  actor: Actor,
  coupon: CouponRecord,
  fields: CouponFields,
): CouponRecord {
  if (fields.location_id !== null) requireWritableLocation(core, actor, fields.location_id);
  checkCoupon(core, { ...coupon, ...fields });
  Object.assign(coupon, fields);
  touch(coupon, core.clock.nowMs());
  core.events.record('coupon.updated', coupon);
  return { ...coupon };
}

/** Deletes a coupon (coupon.deleted); answers {object, id, deleted: true}. */
export function deleteCoupon(core: SandboxCore, coupon: CouponRecord) {
  core.state.promotions.deletedCoupons.add(coupon.id);
  // The coupon.deleted payload is {id, deleted: true} (reference section 6); the answer adds object.
  core.events.record('coupon.deleted', { id: coupon.id, deleted: true }, coupon.location_id);
  return { object: 'coupon', id: coupon.id, deleted: true };
}
