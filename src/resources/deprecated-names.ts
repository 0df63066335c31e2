// Hand-written: the resource class names before they followed the accessor rule (src/resources/README.md).
// Each stays usable as a type and as a value (instanceof, extends) until the next major release.
import {
  CustomersAccount,
  CustomersAccountPayments,
  CustomersStoreCredit,
  MeResource,
  Range,
  RangeAvailabilityResource,
  RangeRentalCheckouts,
  RangeRentals,
  RangeReservations,
  StoreCreditResource,
} from './groups.js';

/** @deprecated Renamed {@link Range} (`shop.range`). */
export const ShootingRange = Range;
/** @deprecated Renamed {@link Range} (`shop.range`). */
export type ShootingRange = Range;
/** @deprecated Renamed {@link MeResource} (`shop.me`). */
export const CurrentKey = MeResource;
/** @deprecated Renamed {@link MeResource} (`shop.me`). */
export type CurrentKey = MeResource;
/** @deprecated Renamed {@link StoreCreditResource} (`shop.storeCredit`). */
export const StoreCreditBalances = StoreCreditResource;
/** @deprecated Renamed {@link StoreCreditResource} (`shop.storeCredit`). */
export type StoreCreditBalances = StoreCreditResource;
/** @deprecated Renamed {@link RangeAvailabilityResource} (`shop.range.availability`). */
export const Availability = RangeAvailabilityResource;
/** @deprecated Renamed {@link RangeAvailabilityResource} (`shop.range.availability`). */
export type Availability = RangeAvailabilityResource;
/** @deprecated Renamed {@link RangeReservations} (`shop.range.reservations`). */
export const Reservations = RangeReservations;
/** @deprecated Renamed {@link RangeReservations} (`shop.range.reservations`). */
export type Reservations = RangeReservations;
/** @deprecated Renamed {@link RangeRentals} (`shop.range.rentals`). */
export const Rentals = RangeRentals;
/** @deprecated Renamed {@link RangeRentals} (`shop.range.rentals`). */
export type Rentals = RangeRentals;
/** @deprecated Renamed {@link RangeRentalCheckouts} (`shop.range.rentalCheckouts`). */
export const RentalCheckouts = RangeRentalCheckouts;
/** @deprecated Renamed {@link RangeRentalCheckouts} (`shop.range.rentalCheckouts`). */
export type RentalCheckouts = RangeRentalCheckouts;
/** @deprecated Renamed {@link CustomersAccount} (`shop.customers.account`). */
export const CustomerAccounts = CustomersAccount;
/** @deprecated Renamed {@link CustomersAccount} (`shop.customers.account`). */
export type CustomerAccounts = CustomersAccount;
/** @deprecated Renamed {@link CustomersAccountPayments} (`shop.customers.account.payments`). */
export const CustomerAccountPayments = CustomersAccountPayments;
/** @deprecated Renamed {@link CustomersAccountPayments} (`shop.customers.account.payments`). */
export type CustomerAccountPayments = CustomersAccountPayments;
/** @deprecated Renamed {@link CustomersStoreCredit} (`shop.customers.storeCredit`). */
export const CustomerStoreCredit = CustomersStoreCredit;
/** @deprecated Renamed {@link CustomersStoreCredit} (`shop.customers.storeCredit`). */
export type CustomerStoreCredit = CustomersStoreCredit;
