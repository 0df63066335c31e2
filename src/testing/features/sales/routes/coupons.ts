import { FieldReader, pathId } from '../../../http/fields.js';
import { routeFor } from '../../../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import {
  COUPON_CHANNELS,
  type CouponFields,
  createCoupon,
  deleteCoupon,
  findCoupon,
  updateCoupon,
} from '../coupons.js';
import type { CouponRecord } from '../promotions-state.js';

function couponAt(context: RouteContext): CouponRecord {
  return findCoupon(context.sandbox, context.key, pathId(context.params, 'coupon'));
}

/** Reads the coupon fields sent; on PATCH the rest stay as they are. */
function readFields(context: RouteContext, current: CouponFields | null): CouponFields {
  const { body } = context;
  const reader = FieldReader.body(body);
  const explicitNull = (field: string) => Object.hasOwn(body, field) && body[field] === null;
  const iso = (field: string) => {
    const ms = reader.dateTime(field);
    return ms === undefined ? undefined : new Date(ms).toISOString();
  };
  const pick = <T>(field: keyof CouponFields, value: T | undefined, fallback: T): T =>
    value !== undefined ? value : explicitNull(field) ? (null as T) : fallback;
  const code = reader.string('code', { required: current === null });
  if (code !== undefined && !/^\S{1,40}$/.test(code))
    reader.fail('code', 'must be 1 to 40 characters without spaces');
  const fields: CouponFields = {
    code: code ?? current?.code ?? '',
    name: reader.string('name') ?? current?.name ?? code ?? '',
    percent_off: pick(
      'percent_off',
      reader.integer('percent_off', { min: 1, max: 100 }),
      current?.percent_off ?? null,
    ),
    amount_off_cents: pick(
      'amount_off_cents',
      reader.integer('amount_off_cents', { min: 1 }),
      current?.amount_off_cents ?? null,
    ),
    channel: reader.string('channel', { oneOf: COUPON_CHANNELS }) ?? current?.channel ?? 'all',
    location_id: pick('location_id', reader.integer('location_id'), current?.location_id ?? null),
    active: reader.boolean('active') ?? current?.active ?? true,
    starts_at: pick('starts_at', iso('starts_at'), current?.starts_at ?? null),
    ends_at: pick('ends_at', iso('ends_at'), current?.ends_at ?? null),
  };
  reader.done();
  return fields;
}

/**
 * Coupons: create, change, delete, each firing coupon.created / .updated / .deleted. The reference shows
 * code, channel and location_id; the discount, activity and window fields are the sandbox's own.
 */
export const couponRoutes: readonly RouteDefinition[] = [
  {
    ...routeFor('coupons.create'),
    handle: (context) => created(createCoupon(context.sandbox, context.key, readFields(context, null))),
  },
  {
    ...routeFor('coupons.update'),
    handle: (context) => {
      const coupon = couponAt(context);
      return ok(updateCoupon(context.sandbox, context.key, coupon, readFields(context, coupon)));
    },
  },
  {
    ...routeFor('coupons.delete'),
    handle: (context) => ok(deleteCoupon(context.sandbox, couponAt(context))),
  },
];
