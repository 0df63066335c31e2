/**
 * The zod/mini schemas behind the SDK's types, for a caller that checks data itself.
 *
 * @module shop-mgmt/schemas
 */
// `shop-mgmt/schemas`: the zod/mini schemas behind the SDK's types, for a caller that checks data itself (an
// event's `data.object`, a record kept in a cache). A subpath of its own so that the main entry stays free of
// zod and the schemas, which it loads only on the first call.

// A receiver that wants `data.object` checked strictly validates it with EVENT_PAYLOAD_SCHEMAS[event.type]
// (verifyWebhook and the feed check the envelope only).
export { EVENT_PAYLOAD_SCHEMAS, type EventPayloadMap } from './generated/events.js';
// Each endpoint's query, body and result schemas, keyed as the `operations` table of the main entry.
export { OPERATION_SCHEMAS } from './generated/operation-schemas.js';
// Every record's schema (`RangeReservationSchema`...) beside its documented type.
export * from './generated/schemas.js';
