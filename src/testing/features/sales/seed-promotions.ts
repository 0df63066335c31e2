import { addDays, dateOf } from '../../state/dates.js';
import { DAY_MS, isoAt, type SeedContext } from '../seed-context.js';
import { scheduleExpiry } from './gift-certificates.js';
import type { CouponRecord, GiftCertificateRecord } from './promotions-state.js';

type CertificateSeed = Pick<
  GiftCertificateRecord,
  'code' | 'status' | 'initial_balance_cents' | 'balance_cents'
> & {
  expiresInDays?: number;
  redeemed?: readonly number[];
  customerId?: number;
};

/** One certificate per status, plus one that expires on the clock three days in. */
const CERTIFICATES: readonly CertificateSeed[] = [
  {
    code: 'GC-RIDGE-0001',
    status: 'active',
    initial_balance_cents: 5000,
    balance_cents: 5000,
    customerId: 3,
  },
  {
    code: 'HOLIDAY-2025-AB',
    status: 'active',
    initial_balance_cents: 10_000,
    balance_cents: 3250,
    redeemed: [4500, 2250],
  },
  { code: 'GC-DISABLED-01', status: 'disabled', initial_balance_cents: 2500, balance_cents: 2500 },
  {
    code: 'GC-EXPIRED-01',
    status: 'expired',
    initial_balance_cents: 2000,
    balance_cents: 1200,
    expiresInDays: -10,
    redeemed: [800],
  },
  {
    code: 'GC-DEPLETED-1',
    status: 'depleted',
    initial_balance_cents: 1500,
    balance_cents: 0,
    redeemed: [1500],
  },
  {
    code: 'GC-SOON-0001',
    status: 'active',
    initial_balance_cents: 7500,
    balance_cents: 7500,
    expiresInDays: 3,
  },
];

type CouponSeed = Pick<
  CouponRecord,
  'code' | 'name' | 'percent_off' | 'amount_off_cents' | 'channel' | 'location_id'
>;

const COUPONS: readonly CouponSeed[] = [
  {
    code: 'SPRING10',
    name: '10% off everything',
    percent_off: 10,
    amount_off_cents: null,
    channel: 'all',
    location_id: null,
  },
  {
    code: 'RANGEDAY5',
    name: '$5 off lane time',
    percent_off: null,
    amount_off_cents: 500,
    channel: 'in_store',
    location_id: 1,
  },
  {
    code: 'WEB15',
    name: '15% off online',
    percent_off: 15,
    amount_off_cents: null,
    channel: 'store_online',
    location_id: 1,
  },
  {
    code: 'NORTH20',
    name: 'Eagle store opening',
    percent_off: 20,
    amount_off_cents: null,
    channel: 'in_store',
    location_id: 2,
  },
];

/** Gift certificates in every status with their balance history, and coupons (shop-wide and per location). */
export function seedPromotions(context: SeedContext): void {
  const { promotions } = context.world.state;
  const today = dateOf(context.nowMs);
  for (const [index, seed] of CERTIFICATES.entries()) {
    const issued = isoAt(context, -(90 - index * 10) * DAY_MS);
    const certificate = promotions.giftCertificates.insert((id) => ({
      object: 'gift_certificate',
      id,
      code: seed.code,
      status: seed.status,
      initial_balance_cents: seed.initial_balance_cents,
      balance_cents: seed.balance_cents,
      customer_id: seed.customerId ?? null,
      location_id: 1,
      expires_on: seed.expiresInDays === undefined ? null : addDays(today, seed.expiresInDays),
      created_at: issued,
      updated_at: isoAt(context, -(20 - index) * DAY_MS),
    }));
    const moves: [string, number][] = [
      ['issued', seed.initial_balance_cents],
      ...(seed.redeemed ?? []).map((amount): [string, number] => ['redeemed', -amount]),
    ];
    for (const [step, [kind, amount]] of moves.entries()) {
      promotions.giftCertificateMoves.insert((id) => ({
        id,
        certificate_id: certificate.id,
        kind: kind as 'issued' | 'redeemed',
        amount_cents: amount,
        reversed: false,
        note: null,
        created_at: step === 0 ? issued : isoAt(context, -(30 - step * 5) * DAY_MS),
      }));
    }
    scheduleExpiry(context.world, certificate);
  }
  for (const [index, seed] of COUPONS.entries()) {
    const created = isoAt(context, -(60 - index * 7) * DAY_MS);
    promotions.coupons.insert((id) => ({
      object: 'coupon',
      id,
      ...seed,
      active: true,
      starts_at: null,
      ends_at: seed.code === 'NORTH20' ? isoAt(context, 20 * DAY_MS) : null,
      created_at: created,
      updated_at: created,
    }));
  }
}
