/**
 * The client (`ShopClient`), its errors, pagination, the options a partner configures and the helpers a
 * partner calls. Records, parameter types and the known-value lists are in `shop-mgmt/schemas`; the resource
 * group classes are in the `resources` namespace.
 *
 * @module shop-mgmt
 */
// Anything not exported here may change in any release; scripts/check-package-surface.mjs bounds these names.

export { type ClientOptions, type DerivedOptions, ShopClient, type Webhooks } from './client.js';
export { APIPromise, type APIResponse } from './core/api/api-promise.js';
// Raw calls: `shop.request(operations[id], ...)`, or an endpoint of your own through defineOperation.
export {
  defineOperation,
  type HttpMethod,
  type Operation,
  type OperationDefinition,
  type OperationResult,
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
export { type OperationId, operations } from './generated/operations.js';
// The resource group classes (`shop.range.reservations` is a `resources.RangeReservationsApi`), for typing and
// extension over `APIResource`.
export * as resources from './resources/index.js';
// Keeping a mirror in step: the event-feed catch-up and the inventory mirror.
export * from './sync/index.js';
export { VERSION } from './version.js';
// The webhook errors, from webhooks (built on ShopError).
export {
  isWebhookVerificationError,
  WebhookConfigurationError,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhooks/errors.js';
