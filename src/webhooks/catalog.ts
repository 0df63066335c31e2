// PROVISIONAL until src/generated/event-types.ts and src/generated/events.ts land: then this file only
// re-exports them. Everything in src/webhooks/ imports the catalog from here, so the switch is one file.

/** Every event type of the reference's catalog (section 6), as the SDK knows it. */
export const EVENT_TYPES = [
  'product.created',
  'product.updated',
  'product.deleted',
  'inventory.changed',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'order.created',
  'sale.completed',
  'sale.voided',
  'sale.refunded',
  'return.created',
  'purchase_order.created',
  'purchase_order.submitted',
  'purchase_order.cancelled',
  'receiving.posted',
  'gift_certificate.issued',
  'gift_certificate.updated',
  'store_credit.changed',
  'invoice.created',
  'invoice.updated',
  'account.payment_received',
  'membership.created',
  'membership.updated',
  'membership.payment_failed',
  'coupon.created',
  'coupon.updated',
  'coupon.deleted',
  'location.created',
  'location.updated',
  'range.reservation.booked',
  'range.reservation.cancelled',
  'range.reservation.checked_in',
  'range.reservation.completed',
  'range.reservation.no_show',
  'range.rental.checked_out',
  'range.rental.checked_in',
  'range.rental.out_of_service',
  'range.rental.returned_to_service',
] as const;

/** An event type the SDK knows. */
export type EventType = (typeof EVENT_TYPES)[number];

/** `data.object` of each known event type. */
export type EventPayloadMap = {
  [K in EventType]: K extends 'inventory.changed'
    ? {
        object: 'inventory_level';
        product_id: number;
        location_id: number;
        qty_on_hand: number;
        qty_reserved: number;
        qty_available: number;
        updated_at: string;
        sku: string;
        name: string;
        qty_delta: number;
        reason: string;
        [key: string]: unknown;
      }
    : K extends `range.reservation.${string}`
      ? { object: 'range_reservation'; id: number; status: string; [key: string]: unknown }
      : { object: string; [key: string]: unknown };
};
