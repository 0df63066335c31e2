import type { RouteDefinition } from '../http/route.js';
import { eventRoutes } from './events-feed/routes.js';
import { inventoryRoutes } from './inventory/routes/inventory.js';
import { productRoutes } from './inventory/routes/products.js';
import { membershipRoutes } from './memberships/routes.js';
import { purchaseOrderRoutes } from './purchasing/routes.js';
import { rangeAvailabilityRoutes } from './range/routes/availability.js';
import { rangeOfferingRoutes } from './range/routes/offerings.js';
import { rangeRentalRoutes } from './range/routes/rentals.js';
import { rangeReservationRoutes } from './range/routes/reservations.js';
import { returnRoutes } from './returns/routes.js';
import { accountRoutes } from './sales/routes/accounts.js';
import { cardTransactionRoutes } from './sales/routes/card-transactions.js';
import { couponRoutes } from './sales/routes/coupons.js';
import { giftCertificateRoutes } from './sales/routes/gift-certificates.js';
import { orderRoutes } from './sales/routes/orders.js';
import { storeCreditRoutes } from './sales/routes/store-credit.js';
import { locationRoutes } from './shop/routes/locations.js';
import { meRoutes } from './shop/routes/me.js';

/**
 * Every endpoint the sandbox serves. A route group is one file in this folder exporting a list of
 * `RouteDefinition`s; add it here and the routeTable, auth, rate limits and idempotency apply to it.
 */
export const ROUTES: readonly RouteDefinition[] = [
  ...rangeOfferingRoutes,
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
