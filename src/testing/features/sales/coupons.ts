import { apiError, notFound, validationError } from '../../errors.js';
import { touch } from '../../state/stamps.js';
import { type Actor, canSeeLocation, requireWritableLocation } from '../actor.js';
import { operationRules } from '../operation-rules.js';
import type { DomainWorld } from '../world.js';
import type { CouponRecord } from './promotions-state.js';

/** The channel values: the reference shows store_online; all and in_store are the sandbox's guesses. */
export const COUPON_CHANNELS = ['all', 'in_store', 'store_online'] as const;

/** The coupons that still exist (deleted ones answer 404). */
export function liveCoupons(world: DomainWorld): CouponRecord[] {
  return world.state.promotions.coupons.filter((row) => !world.state.promotions.deletedCoupons.has(row.id));
}

/**
 * The rules a saved coupon must meet (reference section 9, 2026-10-04): its code is unused (409
 * CODE_TAKEN, compared without case), and a location coupon on channel store_online needs a location
 * with an online storefront (400 VALIDATION_ERROR on location_id).
 */
export function checkCoupon(
  world: DomainWorld,
  coupon: Omit<CouponRecord, 'id'> & { id: number | null },
): void {
  if (coupon.channel === 'store_online' && coupon.location_id !== null) {
    const location = world.state.shop.locations.get(coupon.location_id);
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
  if (liveCoupons(world).some((row) => row.id !== coupon.id && row.code.toUpperCase() === code)) {
    throw apiError('CODE_TAKEN', `The coupon code ${coupon.code} is in use`, {
      code: coupon.code,
    });
  }
}

/** What a coupon write sets: every field but the record's own (object, id, stamps). */
export type CouponFields = Omit<CouponRecord, 'object' | 'id' | 'created_at' | 'updated_at'>;

/** A coupon at a location the actor cannot see answers 404; shop-wide coupons (location_id null) do not. */
export function findCoupon(world: DomainWorld, actor: Actor, id: number): CouponRecord {
  const coupon = liveCoupons(world).find((row) => row.id === id);
  if (!coupon || !canSeeLocation(actor, coupon.location_id)) throw notFound('coupon');
  return coupon;
}

/** Creates a coupon (coupon.created) after the location and the coupon rules are checked. */
export function createCoupon(world: DomainWorld, actor: Actor, fields: CouponFields): CouponRecord {
  if (fields.location_id !== null) requireWritableLocation(world, actor, fields.location_id);
  checkCoupon(world, { object: 'coupon', id: null, created_at: '', updated_at: '', ...fields });
  const now = world.clock.iso();
  const coupon = world.state.promotions.coupons.insert((id) => ({
    object: 'coupon',
    id,
    ...fields,
    created_at: now,
    updated_at: now,
  }));
  world.events.record('coupon.created', coupon);
  return { ...coupon };
}

/** Changes a coupon (coupon.updated) after the location and the coupon rules are checked. */
export function updateCoupon(
  world: DomainWorld,
  actor: Actor,
  coupon: CouponRecord,
  fields: CouponFields,
): CouponRecord {
  if (fields.location_id !== null) requireWritableLocation(world, actor, fields.location_id);
  checkCoupon(world, { ...coupon, ...fields });
  Object.assign(coupon, fields);
  touch(coupon, world.clock.nowMs());
  world.events.record('coupon.updated', coupon);
  return { ...coupon };
}

/** Deletes a coupon (coupon.deleted); answers {object, id, deleted: true}. */
export function deleteCoupon(world: DomainWorld, coupon: CouponRecord) {
  world.state.promotions.deletedCoupons.add(coupon.id);
  // The coupon.deleted payload is {id, deleted: true} (reference section 6); the answer adds object.
  world.events.record('coupon.deleted', { id: coupon.id, deleted: true }, coupon.location_id);
  return { object: 'coupon', id: coupon.id, deleted: true };
}

/** The coupon rules the sandbox serves as they are (http/rule-routes.ts); create and update read more. */
export const couponRules = operationRules({
  'coupons.delete': (world, { actor, path }) => deleteCoupon(world, findCoupon(world, actor, path.id)),
});
