// Events the inbox tests write, typed as the API sends them (integer ids, no casts): a deleted customer for
// the tests that need any event, reservations and stock changes for the ordering tests.
import type { RangeReservation } from '../../../src/generated/schemas.range.js';
import type { ShopEventOf } from '../../../src/webhooks/events.js';

let n = 0;

/** A unique event id per call, also unique across test processes sharing a database. */
export function eventId(): string {
  n++;
  return `evt_${process.pid}_${n}_${Math.random().toString(36).slice(2, 8)}`;
}

/** The nth second of the test day, as the API writes `created_at`. */
export function at(second: number): string {
  return new Date(Date.UTC(2026, 8, 24, 10, 0, second)).toISOString();
}

const envelope = (createdAt: string) => ({
  id: eventId(),
  object: 'event' as const,
  api_version: '2026-09-24',
  created_at: createdAt,
  livemode: false,
});

/** Any event: a customer deleted. */
export function anyEvent(customerId = 1000 + n, createdAt = at(n % 60)): ShopEventOf<'customer.deleted'> {
  return {
    ...envelope(createdAt),
    type: 'customer.deleted',
    data: { object: { object: 'customer', id: customerId, deleted: true } },
  };
}

function reservation(id: number, status: 'booked' | 'cancelled', createdAt: string): RangeReservation {
  return {
    object: 'range_reservation',
    id,
    location_id: 1,
    class_session_id: null,
    status,
    source: 'api',
    party_size: 2,
    starts_at: '2026-09-25T15:00:00Z',
    ends_at: '2026-09-25T16:00:00Z',
    contact: { name: 'Ada' },
    customer_ids: [],
    payment_status: 'paid',
    paid_cents: 4000,
    refunded_cents: 0,
    order_id: null,
    storefront_order_id: null,
    lines: [],
    confirmed_at: createdAt,
    checked_in_at: null,
    completed_at: null,
    cancelled_at: status === 'cancelled' ? createdAt : null,
    no_show_at: null,
    cancel_reason: null,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** Reservation `id` booked. */
export function booked(id: number, createdAt: string): ShopEventOf<'range.reservation.booked'> {
  return {
    ...envelope(createdAt),
    type: 'range.reservation.booked',
    data: { object: reservation(id, 'booked', createdAt) },
  };
}

/** Reservation `id` cancelled. */
export function cancelled(id: number, createdAt: string): ShopEventOf<'range.reservation.cancelled'> {
  return {
    ...envelope(createdAt),
    type: 'range.reservation.cancelled',
    data: { object: reservation(id, 'cancelled', createdAt) },
  };
}

/** A stock change of product `productId` at location `locationId`. */
export function stockEvent(
  productId: number,
  locationId: number,
  qtyAvailable: number,
  createdAt: string,
): ShopEventOf<'inventory.changed'> {
  return {
    ...envelope(createdAt),
    type: 'inventory.changed',
    data: {
      object: {
        object: 'inventory_level',
        product_id: productId,
        location_id: locationId,
        qty_on_hand: qtyAvailable,
        qty_reserved: 0,
        qty_available: qtyAvailable,
        reorder_point: 0,
        bin_location: 'A1',
        updated_at: createdAt,
        sku: `SKU-${productId}`,
        name: `Product ${productId}`,
        qty_delta: 1,
        reason: 'sale',
      },
    },
  };
}
