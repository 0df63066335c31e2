import type { REQUEST_BODIES } from '../../../../generated/request-rules.js';
import { type FieldReader, pathId } from '../../../http/fields.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../../../http/route.js';
import { bodyRoute, type FieldValues } from '../../../http/rules.js';
import { COUPON_CHANNELS, type CouponFields, createCoupon, findCoupon, updateCoupon } from '../coupons.js';
import type { CouponRecord } from '../promotions-state.js';

function couponAt(context: RouteContext): CouponRecord {
  return findCoupon(context.sandbox, context.key, pathId(context.params, 'coupon'));
}

/**
 * The reference shows code, channel and location_id; the channel's values, the discount, activity and window
 * fields are the sandbox's own. null clears a field that may be empty.
 */
const COUPON_RULES = {
  channel: { enum: COUPON_CHANNELS },
  name: { type: 'string' },
  percent_off: { type: 'integer', minimum: 1, maximum: 100, nullable: true },
  amount_off_cents: { type: 'integer', minimum: 1, nullable: true },
  active: { type: 'boolean' },
  starts_at: { type: 'string', format: 'date-time', nullable: true },
  ends_at: { type: 'string', format: 'date-time', nullable: true },
} as const;

type CouponBody = FieldValues<(typeof REQUEST_BODIES)['coupons.create'] & typeof COUPON_RULES>;

/** The coupon's fields after the body: those sent, the rest as they are (`current`, on PATCH) or defaults. */
function couponFields(body: CouponBody, fields: FieldReader, current: CouponFields | null): CouponFields {
  const { code } = body;
  if (current === null && !fields.has('code')) fields.fail('code', 'is required');
  if (code !== undefined && !/^\S{1,40}$/.test(code))
    fields.fail('code', 'must be 1 to 40 characters without spaces');
  fields.done();
  const iso = (ms: number | null | undefined) => (typeof ms === 'number' ? new Date(ms).toISOString() : ms);
  const sent = <T>(value: T | undefined, otherwise: T): T => (value === undefined ? otherwise : value);
  return {
    code: code ?? current?.code ?? '',
    name: body.name ?? current?.name ?? code ?? '',
    percent_off: sent(body.percent_off, current?.percent_off ?? null),
    amount_off_cents: sent(body.amount_off_cents, current?.amount_off_cents ?? null),
    channel: body.channel ?? current?.channel ?? 'all',
    location_id: sent(body.location_id, current?.location_id ?? null),
    active: body.active ?? current?.active ?? true,
    starts_at: sent(iso(body.starts_at), current?.starts_at ?? null),
    ends_at: sent(iso(body.ends_at), current?.ends_at ?? null),
  };
}

/**
 * Coupons: create and change, firing coupon.created / .updated (delete is a rule in coupons.ts). The reference shows
 * code, channel and location_id; the discount, activity and window fields are the sandbox's own.
 */
export const couponRoutes: readonly RouteDefinition[] = [
  bodyRoute('coupons.create', COUPON_RULES, (context, body, fields) =>
    created(createCoupon(context.sandbox, context.key, couponFields(body, fields, null))),
  ),
  bodyRoute('coupons.update', COUPON_RULES, (context, body, fields) => {
    const coupon = couponAt(context);
    return ok(updateCoupon(context.sandbox, context.key, coupon, couponFields(body, fields, coupon)));
  }),
];
