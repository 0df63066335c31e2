// Types only, and the zod-free list of types, so `shop-mgmt/webhooks` never loads zod.
export { EVENT_TYPES, type EventType } from '../generated/event-types.js';
export type { EventPayloadMap } from '../generated/events.js';
