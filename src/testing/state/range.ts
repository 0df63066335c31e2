import { Table } from './table.js';

/** range_resource of reference section 2, plus `lane_type` (see below). */
export interface RangeResourceRecord {
  object: 'range_resource';
  id: number;
  location_id: number;
  type: string;
  booking_mode: 'exclusive' | 'session_capacity';
  name: string;
  capacity: number;
  base_price_cents: number;
  floor_status: string;
  status: string;
  sort_order: number;
  /**
   * The lane's kind (rifle, pistol, ...) that availability's `lane_type` filters on. The reference does
   * not show where a resource carries it; the sandbox adds this field to lanes and null elsewhere.
   */
  lane_type: string | null;
  updated_at: string;
}

export interface RangeClassRecord {
  object: 'range_class';
  id: number;
  location_id: number;
  product_id: number;
  name: string;
  instructor_name: string;
  duration_minutes: number;
  default_capacity: number;
  min_age: number;
  prerequisites: null;
  what_to_bring: string;
  updated_at: string;
}

export interface RangeSessionRecord {
  object: 'range_class_session';
  id: number;
  class_id: number;
  location_id: number;
  resource_id: number;
  starts_at: string;
  ends_at: string;
  capacity: number;
  seats_booked: number;
  seats_left: number;
  price_cents: number;
  status: string;
  updated_at: string;
}

export interface ReservationLine {
  kind: 'resource' | 'lane_time' | 'rental' | 'adjustment';
  /** Never null in the reference: an adjustment names the resource the visit used. */
  resource_id: number;
  product_id: number | null;
  description: string;
  quantity: number;
  unit_cents: number;
  total_cents: number;
}

export interface RangeReservationRecord {
  object: 'range_reservation';
  id: number;
  location_id: number;
  class_session_id: number | null;
  status: string;
  source: string;
  party_size: number;
  starts_at: string;
  ends_at: string;
  contact: { name: string | null; email: string | null; phone: string | null };
  customer_ids: number[];
  payment_status: string;
  paid_cents: number;
  refunded_cents: number;
  order_id: number | null;
  storefront_order_id: string | null;
  lines: ReservationLine[];
  confirmed_at: string | null;
  checked_in_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  no_show_at: string | null;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface RangeRentalCheckoutRecord {
  object: 'range_rental_checkout';
  id: number;
  rental_id: number;
  location_id: number;
  customer_id: number;
  reservation_id: number | null;
  order_id: number | null;
  checked_out_at: string;
  condition_out: string | null;
  checked_in_at: string | null;
  condition_in: string | null;
  rounds_fired: number | null;
}

/** A rental gun. `checkout` is not stored: it is the open row of the checkouts table. */
export interface RangeRentalRecord {
  object: 'range_rental';
  id: number;
  location_id: number;
  product_id: number;
  serialized_item_id: number;
  name: string;
  caliber: string;
  firearm_type: string;
  serial_number: string;
  tag: string;
  status: 'available' | 'checked_out' | 'maintenance' | 'retired';
  fee_cents: number;
  min_age: number;
  round_count: number;
  last_serviced_on: string | null;
  out_of_service_reason: string | null;
  updated_at: string;
}

/** Range state: lanes, classes, sessions, bookings, the rental fleet and its custody history. */
export interface RangeState {
  resources: Table<RangeResourceRecord>;
  classes: Table<RangeClassRecord>;
  sessions: Table<RangeSessionRecord>;
  reservations: Table<RangeReservationRecord>;
  rentals: Table<RangeRentalRecord>;
  checkouts: Table<RangeRentalCheckoutRecord>;
  /** Fields a booking accepts that the reservation record does not show (notes, external_reference). */
  bookingExtras: Map<number, { notes: string | null; external_reference: string | null }>;
  /** Checkouts carry no updated_at; the sandbox remembers when each last changed for updated_since. */
  checkoutChangedAt: Map<number, string>;
}

export function createRangeState(): RangeState {
  return {
    resources: new Table(),
    classes: new Table(),
    sessions: new Table(),
    reservations: new Table(),
    rentals: new Table(),
    checkouts: new Table(),
    bookingExtras: new Map(),
    checkoutChangedAt: new Map(),
  };
}
