import type { ActivityLog } from '../activity.js';
import type { SandboxClock } from '../clock.js';
import type { DeliveryQueue } from '../events/delivery.js';
import type { EndpointRegistry } from '../events/endpoints.js';
import type { EventLog } from '../events/log.js';
import type { EventOverrides } from '../events/overrides.js';
import type { ResolvedOptions } from '../options.js';
import type { SeededRandom } from '../random.js';
import type { SandboxState } from './state.js';

/**
 * The world as domain code, seeders and the register see it: the shop's state, time and events, without the
 * HTTP machinery (keys, rate limits, idempotency, faults) that `SandboxWorld` (world.ts) adds.
 */
export interface DomainWorld {
  readonly options: ResolvedOptions;
  readonly clock: SandboxClock;
  /**
   * Seeded: generated domain values (card links, codes) repeat for the same seed and calls. Event and
   * delivery ids come from streams of their own, so recording an event never shifts these values.
   */
  readonly random: SeededRandom;
  readonly state: SandboxState;
  readonly endpoints: EndpointRegistry;
  readonly events: EventLog;
  readonly deliveries: DeliveryQueue;
  /** A one-shot change to the next event of a type (the CLI's `trigger --override`). */
  readonly overrides: EventOverrides;
  /** The live log of requests, delivery attempts and recorded events (the CLI serves it as a stream). */
  readonly activity: ActivityLog;
}
