/** The api_version every event carries (reference section 2). */
export const API_VERSION = '2026-09-24';

const PERMISSION_BY_PREFIX: readonly (readonly [string, string])[] = [
  ['product.', 'products:read'],
  ['inventory.', 'inventory:read'],
  ['customer.', 'customers:read'],
  ['order.', 'orders:read'],
  ['sale.', 'orders:read'],
  ['return.', 'returns:read'],
  ['purchase_order.', 'purchase_orders:read'],
  ['receiving.', 'purchase_orders:read'],
  ['gift_certificate.', 'gift_certificates:read'],
  ['store_credit.', 'store_credit:read'],
  ['invoice.', 'accounts:read'],
  ['account.', 'accounts:read'],
  ['membership.', 'memberships:read'],
  ['coupon.', 'coupons:read'],
  ['location.', 'locations:read'],
  ['range.', 'range:read'],
];

/** The read permission a key needs to see an event of this type in the feed (invoices and accounts: `accounts`). */
export function eventPermission(type: string): string | null {
  return PERMISSION_BY_PREFIX.find(([prefix]) => type.startsWith(prefix))?.[1] ?? null;
}
