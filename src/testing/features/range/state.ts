import type * as Api from '../../../generated/schemas.js';
import type { SandboxRecord } from '../../state/api-records.js';
import { Table } from '../../state/table.js';

/** range_resource of reference section 2, plus `lane_type` (see below). */
export type RangeResourceRecord = SandboxRecord<
  Api.RangeResource,
  {
    /**
     * The lane's kind (rifle, pistol, ...) that availability's `lane_type` filters on. The reference does
     * not show where a resource carries it; the sandbox adds this field to lanes and null elsewhere.
     */
    lane_type: string | null;
    /** Closed here: the booking engine branches on it. */
    booking_mode: 'exclusive' | 'session_capacity';
  }
>;

export type RangeClassRecord = SandboxRecord<Api.RangeClass>;

export type RangeSessionRecord = SandboxRecord<Api.RangeClassSession>;

export type ReservationLine = SandboxRecord<
  Api.RangeReservationLine,
  {
    kind: 'resource' | 'lane_time' | 'rental' | 'adjustment';
    /** Never null in the reference: an adjustment names the resource the visit used. */
    resource_id: number;
  }
>;

export type RangeReservationRecord = SandboxRecord<Api.RangeReservation, { lines: ReservationLine[] }>;

export type RangeRentalCheckoutRecord = SandboxRecord<Api.RangeRentalCheckout>;

/** A rental gun. `checkout` is not stored: it is the open row of the checkouts table. */
export type RangeRentalRecord = SandboxRecord<
  Api.RangeRental,
  { status: 'available' | 'checked_out' | 'maintenance' | 'retired' },
  'checkout'
>;

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
