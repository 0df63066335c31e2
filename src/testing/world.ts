import { ActivityLog } from './activity.js';
import { SandboxClock } from './clock.js';
import { DeliveryQueue } from './events/delivery.js';
import { EndpointRegistry } from './events/endpoints.js';
import { EventLog } from './events/log.js';
import { EventOverrides } from './events/overrides.js';
import { createState } from './features/state.js';
import type { DomainWorld } from './features/world.js';
import { SandboxFaults } from './http/faults.js';
import { IdempotencyStore } from './http/idempotency.js';
import { KeyStore } from './http/keys.js';
import { RateLimiter } from './http/rate-limit.js';
import type { ResolvedOptions } from './options.js';
import { SeededRandom, seededStream } from './random.js';

/**
 * Everything one sandbox holds: the {@link DomainWorld} and the HTTP machinery the routes use. Nothing here
 * is public; `Sandbox` (sandbox.ts) is the partner-facing wrapper.
 */
export interface SandboxWorld extends DomainWorld {
  readonly keys: KeyStore;
  readonly rateLimiter: RateLimiter;
  readonly idempotency: IdempotencyStore;
  readonly faults: SandboxFaults;
}

/** What the shops of a many-shop sandbox share: the failed key attempts per caller IP, on one clock. */
export interface SharedWorld {
  readonly failedAttempts: { readonly failed: Map<string, number[]>; readonly clock: SandboxClock };
}

/** Builds an empty world; seeding fills its state. */
export function createWorld(options: ResolvedOptions, shared?: SharedWorld): SandboxWorld {
  const clock = new SandboxClock(options.now, options.clock, options.clockSpeed);
  const random = new SeededRandom(options.seed);
  const state = createState({
    rangeAddon: options.rangeAddon,
    cardProcessing: options.cardProcessing,
    memberships: options.memberships,
    plan: options.plan,
    environment: options.environment,
    subscription: 'active',
  });
  const endpoints = new EndpointRegistry(clock, options.allowLoopback);
  // Ids from the seed only when asked: otherwise from a random start, unique to this sandbox.
  const idSeed = options.reproducibleIds
    ? options.seed
    : globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
  const events = new EventLog(
    clock,
    seededStream(idSeed, 'event-ids'),
    endpoints,
    () => state.shop.settings.environment === 'live',
  );
  const deliveries = new DeliveryQueue(clock, seededStream(idSeed, 'delivery-ids'), endpoints, {
    signatureClock: options.signatureClock,
    fetch: options.fetch,
    timeoutMs: options.webhookTimeoutMs,
    allowLoopback: options.allowLoopback,
    autoDeliver: options.autoDeliver,
  });
  const overrides = new EventOverrides();
  events.onRecord(overrides.onRecord);
  events.onRecord((event) => deliveries.enqueue(event));
  const activity = new ActivityLog();
  events.onRecord((event) =>
    activity.add({
      kind: 'event',
      at: new Date().toISOString(),
      eventId: event.envelope.id,
      eventType: event.envelope.type,
    }),
  );
  deliveries.onAttempt((attempt, nextRetryAt) =>
    activity.add({ kind: 'delivery', ...attempt, at: new Date().toISOString(), nextRetryAt }),
  );
  return {
    options,
    clock,
    random,
    state,
    keys: new KeyStore(clock, options.environment, shared?.failedAttempts),
    rateLimiter: new RateLimiter(clock, () => state.shop.settings.plan, options.rateLimits),
    idempotency: new IdempotencyStore(clock),
    faults: new SandboxFaults(),
    endpoints,
    events,
    deliveries,
    overrides,
    activity,
  };
}
