import { COUPON_CHANNELS, checkCoupon, liveCoupons } from '../domain/coupons.js';
import { touch } from '../domain/stamps.js';
import { notFound } from '../errors.js';
import { canSeeLocation, requireWritableLocation } from '../http/access.js';
import { FieldReader, pathId } from '../http/fields.js';
import { routeFor } from '../http/operations.js';
import { created, ok, type RouteContext, type RouteDefinition } from '../http/route.js';
import type { CouponRecord } from '../state/promotions.js';

type CouponFields = Omit<CouponRecord, 'object' | 'id' | 'created_at' | 'updated_at'>;

/** A coupon at a location the key cannot see answers 404; shop-wide coupons (location_id null) do not. */
function couponAt(context: RouteContext): CouponRecord {
  const id = pathId(context.params, 'coupon');
  const coupon = liveCoupons(context.sandbox).find((row) => row.id === id);
  if (!coupon || !canSeeLocation(context.key, coupon.location_id)) throw notFound('coupon');
  return coupon;
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
  if (fields.location_id !== null) requireWritableLocation(context, fields.location_id);
  return fields;
}

/**
 * Coupons: create, change, delete, each firing coupon.created / .updated / .deleted. The reference shows
 * code, channel and location_id; the discount, activity and window fields are the sandbox's own.
 */
export const couponRoutes: readonly RouteDefinition[] = [
  {
    ...routeFor('coupons.create'),
    handle: (context) => {
      const { sandbox } = context;
      const fields = readFields(context, null);
      checkCoupon(sandbox, { object: 'coupon', id: null, created_at: '', updated_at: '', ...fields });
      const now = sandbox.clock.iso();
      const coupon = sandbox.state.promotions.coupons.insert((id) => ({
        object: 'coupon',
        id,
        ...fields,
        created_at: now,
        updated_at: now,
      }));
      sandbox.events.record('coupon.created', coupon);
      return created({ ...coupon });
    },
  },
  {
    ...routeFor('coupons.update'),
    handle: (context) => {
      const { sandbox } = context;
      const coupon = couponAt(context);
      const fields = readFields(context, coupon);
      checkCoupon(sandbox, { ...coupon, ...fields });
      Object.assign(coupon, fields);
      touch(coupon, sandbox.clock.nowMs());
      sandbox.events.record('coupon.updated', coupon);
      return ok({ ...coupon });
    },
  },
  {
    ...routeFor('coupons.delete'),
    handle: (context) => {
      const { sandbox } = context;
      const coupon = couponAt(context);
      sandbox.state.promotions.deletedCoupons.add(coupon.id);
      // The coupon.deleted payload is {id, deleted: true} (reference section 6); the answer adds object.
      sandbox.events.record('coupon.deleted', { id: coupon.id, deleted: true }, coupon.location_id);
      return ok({ object: 'coupon', id: coupon.id, deleted: true });
    },
  },
];
