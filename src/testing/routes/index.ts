import type { RouteDefinition } from '../http/route.js';
import { accountRoutes } from './accounts.js';
import { cardTransactionRoutes } from './card-transactions.js';
import { couponRoutes } from './coupons.js';
import { eventRoutes } from './events.js';
import { giftCertificateRoutes } from './gift-certificates.js';
import { inventoryRoutes } from './inventory.js';
import { locationRoutes } from './locations.js';
import { meRoutes } from './me.js';
import { membershipRoutes } from './memberships.js';
import { orderRoutes } from './orders.js';
import { productRoutes } from './products.js';
import { purchaseOrderRoutes } from './purchase-orders.js';
import { rangeAvailabilityRoutes } from './range-availability.js';
import { rangeCatalogRoutes } from './range-catalog.js';
import { rangeRentalRoutes } from './range-rentals.js';
import { rangeReservationRoutes } from './range-reservations.js';
import { returnRoutes } from './returns.js';
import { storeCreditRoutes } from './store-credit.js';

/**
 * Every endpoint the sandbox serves. A route group is one file in this folder exporting a list of
 * `RouteDefinition`s; add it here and the router, auth, rate limits and idempotency apply to it.
 */
export const ROUTES: readonly RouteDefinition[] = [
  ...rangeCatalogRoutes,
  ...rangeAvailabilityRoutes,
  ...rangeReservationRoutes,
  ...rangeRentalRoutes,
  ...eventRoutes,
  ...membershipRoutes,
  ...cardTransactionRoutes,
  ...returnRoutes,
  ...locationRoutes,
  ...productRoutes,
  ...inventoryRoutes,
  ...purchaseOrderRoutes,
  ...orderRoutes,
  ...accountRoutes,
  ...storeCreditRoutes,
  ...giftCertificateRoutes,
  ...couponRoutes,
  ...meRoutes,
];
