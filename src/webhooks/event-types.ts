// The event types as generated from the spec. Only types come from events.ts (it holds zod schemas) and the
// list of types from the zod-free event-types.ts, so `shop-mgmt/webhooks` never loads zod.
export { EVENT_TYPES, type EventType } from '../generated/event-types.js';
export type { EventPayloadMap } from '../generated/events.js';
