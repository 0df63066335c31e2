import { routeFor } from '../http/operations.js';
import { ok, type RouteDefinition } from '../http/route.js';

/**
 * GET /v1/me: the calling key and its shop. Named only in the reference; the sandbox answers with the
 * key's id (never its secret), environment, permissions, locations and expiry, and the shop's settings.
 */
export const meRoutes: readonly RouteDefinition[] = [
  {
    ...routeFor('me.retrieve'),
    handle: ({ sandbox, key }) => {
      const { settings, mainLocationId } = sandbox.state.shop;
      return ok({
        object: 'api_key',
        id: key.id,
        environment: key.environment,
        livemode: key.environment === 'live',
        permissions: [...key.permissions].map(([resource, level]) => `${resource}:${level}`).sort(),
        locations: key.locations === null ? null : [...key.locations].sort((a, b) => a - b),
        expires_at: key.expiresAtMs === null ? null : new Date(key.expiresAtMs).toISOString(),
        shop: {
          object: 'shop',
          plan: settings.plan,
          currency: 'USD',
          main_location_id: mainLocationId,
          range_addon: settings.rangeAddon,
          card_processing: settings.cardProcessing,
          memberships: settings.memberships,
        },
      });
    },
  },
];
