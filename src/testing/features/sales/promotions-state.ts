import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/** The sandbox's gift-certificate statuses: the four GIFT_CERTIFICATE_INACTIVE and enable/disable imply. */
export type GiftCertificateStatus = 'active' | 'disabled' | 'expired' | 'depleted';

/** A gift certificate. code and balance are implied by the reference; the other fields are the sandbox's own. */
export type GiftCertificateRecord = SandboxRecord<
  Api.GiftCertificate,
  {
    object: 'gift_certificate';
    status: GiftCertificateStatus;
    initial_balance_cents: number;
    customer_id: number | null;
    location_id: number | null;
    expires_on: string | null;
    created_at: string;
    updated_at: string;
  }
>;

/** One balance move of a certificate, so `reverse` knows what it undoes. */
export interface GiftCertificateMove {
  id: number;
  certificate_id: number;
  kind: 'issued' | 'redeemed' | 'reloaded' | 'adjusted' | 'reversed';
  amount_cents: number;
  /** Set on a move that a later `reverse` undid. */
  reversed: boolean;
  note: string | null;
  created_at: string;
}

/**
 * A coupon. code, channel (sample store_online) and location_id are the reference's; the discount and
 * window fields are the sandbox's own.
 */
export type CouponRecord = SandboxRecord<
  Api.Coupon,
  {
    object: 'coupon';
    name: string;
    percent_off: number | null;
    amount_off_cents: number | null;
    channel: string;
    active: boolean;
    starts_at: string | null;
    ends_at: string | null;
    created_at: string;
    updated_at: string;
  }
>;

/** Gift certificates with their balance history, and coupons. */
export interface PromotionState {
  giftCertificates: Table<GiftCertificateRecord>;
  giftCertificateMoves: Table<GiftCertificateMove>;
  coupons: Table<CouponRecord>;
  /** Deleted coupons stay in the table (ids are never reused) but answer 404. */
  deletedCoupons: Set<number>;
}

export function createPromotionState(): PromotionState {
  return {
    giftCertificates: new Table(),
    giftCertificateMoves: new Table(),
    coupons: new Table(),
    deletedCoupons: new Set(),
  };
}
