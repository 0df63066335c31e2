import type { RouteDefinition } from '../http/route.js';
import { eventRoutes } from './events.js';
import { rangeCatalogRoutes } from './range-catalog.js';

/**
 * Every endpoint the sandbox serves. A route group is one file in this folder exporting a list of
 * `RouteDefinition`s; add it here and the router, auth, rate limits and idempotency apply to it.
 */
export const ROUTES: readonly RouteDefinition[] = [...rangeCatalogRoutes, ...eventRoutes];
