import type * as Api from '../../generated/schemas.js';
import type { SandboxOptions, SandboxSubscription } from '../options.js';
import type { SandboxRecord } from './api-records.js';
import { Table } from './table.js';

/**
 * A store location. The reference names only storefront_location_id and the writable phone, email and
 * business_hours; the other fields are the sandbox's own guess at a location record.
 */
export type LocationRecord = SandboxRecord<
  Api.Location,
  {
    object: 'location';
    name: string;
    address: string;
    phone: string;
    email: string;
    business_hours: string;
    storefront_location_id: string | null;
    created_at: string;
    updated_at: string;
  }
>;

/**
 * A customer: the spec's Customer as stored (the reference names few customer fields; date of birth is one),
 * with the timestamps the sandbox keeps.
 */
export type CustomerRecord = SandboxRecord<
  Api.Customer,
  {
    // Always set on a sandbox customer (the spec allows null).
    first_name: string;
    last_name: string;
    email: string;
    created_at: string;
    updated_at: string;
  }
>;

/** An email the shop would have sent (confirmation with waiver links, cancellation). */
export interface SentEmail {
  readonly to: string | null;
  readonly kind: 'reservation_confirmation' | 'reservation_cancellation' | (string & {});
  readonly subject: string;
  readonly reservation_id?: number;
  readonly sent_at: string;
}

/** Shop-wide settings the sandbox was created with, plus what tests may change later. */
export interface ShopSettings {
  rangeAddon: boolean;
  cardProcessing: boolean;
  memberships: boolean;
  plan: NonNullable<SandboxOptions['plan']>;
  environment: NonNullable<SandboxOptions['environment']>;
  subscription: SandboxSubscription;
}

/** Records every domain shares: the shop itself, its locations and customers, and the mail outbox. */
export interface ShopState {
  settings: ShopSettings;
  /** The shop's main location: the default for availability and lane bookings. */
  mainLocationId: number;
  locations: Table<LocationRecord>;
  customers: Table<CustomerRecord>;
  outbox: SentEmail[];
}

export function createShopState(settings: ShopSettings): ShopState {
  return { settings, mainLocationId: 1, locations: new Table(), customers: new Table(), outbox: [] };
}
