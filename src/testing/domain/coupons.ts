import type { SandboxCore } from '../core.js';
import { apiError, validationError } from '../errors.js';
import type { CouponRecord } from '../state/promotions.js';

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
