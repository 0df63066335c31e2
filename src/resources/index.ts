// The resource groups of ShopClient: one file per group, each a thin class over the transport.
export { AccountPayments } from './account-payments.js';
export { CardTransactions } from './card-transactions.js';
export { Coupons } from './coupons.js';
export {
  CustomerAccountPayments,
  CustomerAccounts,
  CustomerStoreCredit,
  Customers,
} from './customers/index.js';
export { Events } from './events.js';
export { GiftCertificates } from './gift-certificates.js';
export { Inventory } from './inventory.js';
export { Invoices } from './invoices.js';
export { Locations } from './locations.js';
export { CurrentKey } from './me.js';
export { MembershipPlans } from './membership-plans.js';
export { Memberships } from './memberships.js';
export { Orders } from './orders.js';
export { Products } from './products.js';
export { PurchaseOrders } from './purchase-orders.js';
export {
  Availability,
  RangeClasses,
  RangeResources,
  RangeSessions,
  RentalCheckouts,
  Rentals,
  Reservations,
  ShootingRange,
} from './range/index.js';
export { Returns } from './returns.js';
export { StoreCreditBalances } from './store-credit.js';
export { type Webhooks, webhooks } from './webhooks.js';
