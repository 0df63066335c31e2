import type { SandboxClock } from '../clock.js';
import type { SeededRandom } from '../random.js';
import type { EndpointRegistry } from './endpoints.js';
import { API_VERSION, eventPermission } from './event-permissions.js';

/** The event envelope of reference section 2, as sent in the feed and in webhook bodies. */
export interface EventEnvelope {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  created_at: string;
  livemode: boolean;
  data: { object: Record<string, unknown> };
}

/** An event with what the feed needs to filter it. */
export interface StoredEvent {
  readonly seq: number;
  readonly createdAtMs: number;
  readonly envelope: EventEnvelope;
  readonly locationId: number | null;
  readonly permission: string | null;
}

/** How long the feed keeps an event (reference section 8, "Event feed retention"). */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/** Called for every event recorded, so the delivery queue can enqueue it in the same step. */
export type EventListener = (event: StoredEvent) => void;

/**
 * The event log: an event is recorded with its change, only when an enabled endpoint subscribes to its type,
 * and dropped after the feed's 30 days.
 */
export class EventLog {
  private readonly events: StoredEvent[] = [];
  private readonly listeners: EventListener[] = [];
  private count = 0;

  constructor(
    private readonly clock: SandboxClock,
    private readonly random: SeededRandom,
    private readonly endpoints: EndpointRegistry,
    private readonly livemode: () => boolean,
  ) {}

  /** Registers a listener (the webhook delivery queue). */
  onRecord(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /**
   * Records `type` with a snapshot of `object` (later changes to the record do not alter it). The location
   * is the payload's location_id unless given. Returns the event, or null when nobody subscribes.
   */
  record(type: string, object: object, locationId?: number | null): StoredEvent | null {
    if (!this.endpoints.anySubscribes(type)) return null;
    const event = this.build(type, object, locationId);
    this.dropExpired(event.createdAtMs);
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** An event that is not kept in the feed (the ping of Send test). */
  build(type: string, object: object, locationId?: number | null): StoredEvent {
    const snapshot = structuredClone(object) as Record<string, unknown>;
    const seq = ++this.count;
    const createdAtMs = this.clock.nowMs();
    return {
      seq,
      createdAtMs,
      envelope: {
        id: `evt_${this.random.hex(16)}${seq.toString(16).padStart(8, '0')}`,
        object: 'event',
        type,
        api_version: API_VERSION,
        created_at: new Date(createdAtMs).toISOString(),
        livemode: this.livemode(),
        data: { object: snapshot },
      },
      locationId: locationId !== undefined ? locationId : locationOf(snapshot),
      permission: eventPermission(type),
    };
  }

  /** Every recorded event, oldest first. */
  all(): readonly StoredEvent[] {
    return this.events;
  }

  /** The clock only moves forward, so the expired events are the first ones. */
  private dropExpired(now: number): void {
    let expired = 0;
    while (expired < this.events.length && this.events[expired]!.createdAtMs < now - EVENT_RETENTION_MS) {
      expired += 1;
    }
    if (expired > 0) this.events.splice(0, expired);
  }
}

function locationOf(payload: Record<string, unknown>): number | null {
  return typeof payload.location_id === 'number' ? payload.location_id : null;
}
