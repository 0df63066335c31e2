/**
 * The API's shapes: every record type, request parameter type and known-value list, with the zod/mini schemas
 * that check the records, for typing your own code and for a caller that checks data itself.
 *
 * @module shop-mgmt/schemas
 */
// Apart from the main entry, which stays free of zod. Types cost nothing to import from here.

// The known values of every open enum, `as const`, with their open union types.
export * from './generated/enums.js';
export { ERROR_CODE_STATUS, ERROR_CODES } from './generated/error-codes.js';
export { EVENT_TYPES, type EventType } from './generated/event-types.js';
// A receiver that wants `data.object` checked strictly validates it with EVENT_PAYLOAD_SCHEMAS[event.type]
// (verifyWebhook and the feed check the envelope only).
export { EVENT_PAYLOAD_SCHEMAS, type EventPayloadMap } from './generated/events.js';
// Each endpoint's query, body and result schemas, keyed as the `operations` table of the main entry.
export { OPERATION_SCHEMAS } from './generated/operation-schemas.js';
// Each operation's parameter types (`RangeReservationsCreateParams`...): types only, the checks are the transport's.
export type * from './generated/params.js';
// Every record's schema (`RangeReservationSchema`...) beside its documented type.
export * from './generated/schemas.js';
// The event union `shop.events.list()` yields and webhooks deliver (also in `shop-mgmt/webhooks`).
export type {
  KnownShopEvent,
  ShopEvent,
  ShopEventEnvelope,
  ShopEventOf,
  UnknownShopEvent,
} from './webhooks/events.js';
