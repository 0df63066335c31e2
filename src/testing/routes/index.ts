import type { RouteDefinition } from '../http/route.js';
import { eventRoutes } from './events.js';
import { rangeAvailabilityRoutes } from './range-availability.js';
import { rangeCatalogRoutes } from './range-catalog.js';
import { rangeRentalRoutes } from './range-rentals.js';
import { rangeReservationRoutes } from './range-reservations.js';

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
];
