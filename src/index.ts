// The public surface of `shop-sdk`. Anything not exported here (src/internal above all) may change in any release.

export { type ClientOptions, ShopClient } from './client.js';
export { APIPromise, type APIResponse } from './core/api-promise.js';
export {
  type AnyErrorCode,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  ERROR_CODE_STATUS,
  ERROR_CODES,
  type ErrorCode,
  type ErrorDetails,
  type ErrorDetailsByCode,
  InternalServerError,
  InvalidResponseError,
  isShopError,
  isWebhookVerificationError,
  MethodNotAllowedError,
  NotFoundError,
  ParamsValidationError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  type ResponseIssue,
  ResponseValidationError,
  ShopApiError,
  ShopError,
  TimeoutError,
  UnprocessableEntityError,
  WebhookConfigurationError,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './core/errors/index.js';
export type { Logger, LogLevel } from './core/logger.js';
export {
  defineOperation,
  type HttpMethod,
  type Operation,
  type OperationDefinition,
  type PathParam,
} from './core/operation.js';
export { type ListMeta, Page, PagePromise, type ToArrayOptions } from './core/pagination.js';
export type { RawRequestParams, RawRequestParamsWithBody, RequestParams } from './core/params.js';
export type { RateLimitInfo } from './core/rate-limit.js';
export type { RequestHeaders, RequestOptions } from './core/request-options.js';
export { APIResource } from './core/resource.js';
export type { ThrottleOption } from './core/throttle.js';
export type { FetchLike } from './core/transport.js';
export * from './generated/enums.js';
export { EVENT_TYPES, type EventType } from './generated/event-types.js';
export { EVENT_PAYLOAD_SCHEMAS, type EventPayloadMap } from './generated/events.js';
// The endpoint table the resource methods are built on, for `shop.request(operations[id], ...)` and tools.
export { type OperationId, operations } from './generated/operations.js';
export type * from './generated/params.js';
// Every resource's zod schema, type and known enum values, and every method's params type, from the spec.
export * from './generated/schemas.js';
export { VERSION } from './version.js';
// Resource groups (reachable as `shop.range.reservations` and so on; exported for typing and extension).
export * from './resources/index.js';
// Keeping a mirror in step: the event-feed catch-up and the inventory mirror.
export * from './sync/index.js';
// Typed events, shared with `shop-sdk/webhooks` (type-only here: the parser lives there).
export type {
  KnownShopEvent,
  ShopEvent,
  ShopEventEnvelope,
  ShopEventOf,
  UnknownShopEvent,
} from './webhooks/events.js';
