/**
 * The client (`ShopClient`), its resources, errors, pagination and the event-feed sync helpers.
 *
 * @module shop-mgmt
 */
// The public surface of `shop-mgmt`. Anything not exported here (src/internal above all) may change in any release.

export { type ClientOptions, type DerivedOptions, ShopClient, type Webhooks } from './client.js';
export { APIPromise, type APIResponse } from './core/api/api-promise.js';
export {
  type DocumentedOperation,
  defineOperation,
  type Guard,
  type HttpMethod,
  type Operation,
  type OperationDefinition,
  type OperationFacts,
  type OperationGuards,
  type OperationGuardsLoader,
  type OperationResult,
  type OperationSchemas,
  type OperationSchemasLoader,
  type PathParam,
} from './core/api/operation.js';
export { type ListMeta, Page, PagePromise, type ToArrayOptions } from './core/api/pagination.js';
export type { RawRequestParams, RawRequestParamsWithBody, RequestParams } from './core/api/params.js';
export type { RequestHeaders, RequestOptions } from './core/api/request-options.js';
export { APIResource, type ResourceClient } from './core/api/resource.js';
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
  HookError,
  InternalServerError,
  InvalidResponseError,
  isShopError,
  MethodNotAllowedError,
  NotFoundError,
  ParamsValidationError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  type ResponseIssue,
  ResponseTooLargeError,
  ResponseValidationError,
  ShopApiError,
  ShopError,
  TimeoutError,
  UnprocessableEntityError,
} from './core/errors/index.js';
export type {
  ShopAfterResponseHook,
  ShopBeforeRequestHook,
  ShopHookOptions,
  ShopHookState,
  ShopHooks,
  ShopRequestContext,
  ShopResponseContext,
  ShopRetryContext,
} from './core/observe/hooks.js';
export type { LogFields, Logger, LogLevel } from './core/observe/logger.js';
export {
  ATTEMPT_CHANNEL,
  type AttemptTraceMessage,
  REQUEST_CHANNEL,
  type RequestTraceMessage,
} from './core/observe/tracing.js';
export type { RateLimitInfo } from './core/rate-limit/rate-limit.js';
export {
  MemoryRateLimitStore,
  type RateLimitReservation,
  type RateLimitStore,
} from './core/rate-limit/rate-limit-store.js';
export type { ThrottleOption, ThrottlePace } from './core/rate-limit/throttle-option.js';
export type { CallRecovery } from './core/transport/call.js';
export type { ResponseValidation, ValidationIssueListener } from './core/transport/response.js';
export type { ApiKeyOption, FetchLike } from './core/transport/transport-config.js';
export { newerValue } from './core/validation/newer-value.js';
// The known values of every open enum, `as const`, with their open union types.
export * from './generated/enums.js';
export { EVENT_TYPES, type EventType } from './generated/event-types.js';
// The event payload types. EVENT_PAYLOAD_SCHEMAS, the schemas that check them, are in `shop-mgmt/schemas`:
// no zod schema is bundled with the main entry (the transport loads its own on the first call).
export type { EventPayloadMap } from './generated/events.js';
// Every endpoint with what the reference says of it (permission, errors, summary), for
// `shop.request(operations[id], ...)` and tools; resource methods send through the lean `endpoints` table it extends.
export { type OperationId, operations } from './generated/operations.js';
export type * from './generated/params.js';
// Every resource's type, from the spec. Types only: the zod schemas behind them are in `shop-mgmt/schemas`
// (the transport loads them on its first call). `ListMeta` above, the pagination one, takes the place of the
// spec's type of the same name. The known values of every open enum are in enums.js, exported above.
export type * from './generated/schemas.js';
// Resource groups (reachable as `shop.range.reservations` and so on; exported for typing and extension).
export * from './resources/index.js';
// Keeping a mirror in step: the event-feed catch-up and the inventory mirror.
export * from './sync/index.js';
export { VERSION } from './version.js';
// The webhook errors live with webhooks (built on ShopError), exported here too as they always were.
export {
  isWebhookVerificationError,
  WebhookConfigurationError,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhooks/errors.js';
// Typed events, shared with `shop-mgmt/webhooks` (type-only here: the parser lives there).
export type {
  KnownShopEvent,
  ShopEvent,
  ShopEventEnvelope,
  ShopEventOf,
  UnknownShopEvent,
} from './webhooks/events.js';
