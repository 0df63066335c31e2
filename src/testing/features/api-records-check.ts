// Holds every sandbox record (state/api-records.ts) to the client's generated type, at compile time: a file of its
// own, so that the record types it imports do not import it back (each state file imports SandboxRecord).
// Types only: nothing here exists at runtime.
import type * as Api from '../../generated/schemas.js';
import type { CustomerRecord, LocationRecord } from '../state/shop.js';
import type { ProductRecord } from './inventory/catalog-state.js';
import type { InventoryLevelRecord, SerializedUnitRecord } from './inventory/state.js';
import type { MembershipChargeRecord, MembershipPlanRecord, MembershipRecord } from './memberships/state.js';
import type { PurchaseOrderLineRecord, PurchaseOrderRecord, ReceivingRecord } from './purchasing/state.js';
import type {
  RangeClassRecord,
  RangeRentalCheckoutRecord,
  RangeRentalRecord,
  RangeReservationRecord,
  RangeResourceRecord,
  RangeSessionRecord,
} from './range/state.js';
import type { ReturnLineRecord, ReturnRecord } from './returns/state.js';
import type {
  AccountPaymentRecord,
  HouseAccountRecord,
  InvoiceRecord,
  StoreCreditEntryRecord,
} from './sales/accounts-state.js';
import type { CardTransactionRecord } from './sales/cards-state.js';
import type { OrderRecord } from './sales/orders-state.js';
import type { CouponRecord, GiftCertificateRecord } from './sales/promotions-state.js';

/**
 * The API type without its `[key: string]: unknown` signatures (at every depth): what the spec names. A
 * record type has no index signature, so it could never match the open type itself.
 */
type Named<T> = T extends readonly (infer Item)[]
  ? Named<Item>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Named<T[K]> }
    : T;

/**
 * `true` when `Stored` is a valid `ApiType` but for the `Rendered` fields a route computes when it answers;
 * else a type naming the pair, which fails the check below.
 */
type Conforms<Stored, ApiType, Rendered extends string = never> =
  Stored extends Omit<Named<ApiType>, Rendered> ? true : { readonly drift: [Stored, ApiType] };

/** Each pair is checked when this file is type-checked (the sandbox build and `npm run typecheck`). */
export type SandboxRecordsConform = [
  Conforms<HouseAccountRecord, Api.CustomerAccount>,
  Conforms<InvoiceRecord, Api.Invoice>,
  Conforms<AccountPaymentRecord, Api.AccountPayment>,
  Conforms<StoreCreditEntryRecord, Api.StoreCredit>,
  Conforms<CardTransactionRecord, Api.CardTransaction>,
  Conforms<ProductRecord, Api.Product>,
  Conforms<InventoryLevelRecord, Api.InventoryLevel>,
  Conforms<SerializedUnitRecord, Api.SerializedItem>,
  Conforms<MembershipPlanRecord, Api.MembershipPlan>,
  Conforms<MembershipRecord, Api.Membership>,
  Conforms<MembershipChargeRecord, Api.MembershipCharge>,
  Conforms<OrderRecord, Api.Order>,
  Conforms<GiftCertificateRecord, Api.GiftCertificate>,
  Conforms<CouponRecord, Api.Coupon>,
  Conforms<PurchaseOrderLineRecord, Api.PurchaseOrderLine>,
  Conforms<PurchaseOrderRecord, Api.PurchaseOrder>,
  Conforms<ReceivingRecord, Api.Receiving>,
  Conforms<RangeResourceRecord, Api.RangeResource>,
  Conforms<RangeClassRecord, Api.RangeClass>,
  Conforms<RangeSessionRecord, Api.RangeClassSession>,
  Conforms<RangeReservationRecord, Api.RangeReservation>,
  Conforms<RangeRentalCheckoutRecord, Api.RangeRentalCheckout>,
  // `checkout` is the open row of the checkouts table, joined in when a rental is rendered.
  Conforms<RangeRentalRecord, Api.RangeRental, 'checkout'>,
  Conforms<ReturnLineRecord, Api.ReturnLine>,
  Conforms<ReturnRecord, Api.Return>,
  Conforms<LocationRecord, Api.Location>,
  Conforms<CustomerRecord, Api.Customer>,
];

/** Fails to compile when a pair above does not conform; the error shows the tuple with that pair's `drift`. */
type AllTrue<Checks extends true[]> = Checks;
export type SandboxRecordsChecked = AllTrue<SandboxRecordsConform>;
