// The error classes of core (the webhooks folder's own, built on ShopError, are in src/webhooks/errors.ts;
// src/index.ts exports both). Nothing under errors/ imports zod or ky: the verify-only webhooks entry loads
// these classes without the HTTP client.

export {
  type ApiErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createApiError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  ShopApiError,
  UnprocessableEntityError,
} from './api-errors.js';
export { ERROR_CODE_STATUS, ERROR_CODES, type ErrorCode } from './error-codes.js';
export type { AnyErrorCode, ErrorDetails, ErrorDetailsByCode } from './error-details.js';
export { ParamsValidationError } from './params-validation-error.js';
export { isShopError, ShopError } from './shop-error.js';
export {
  ConnectionError,
  formatIssuePath,
  HookError,
  InvalidResponseError,
  RedirectError,
  type ResponseIssue,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from './transport-errors.js';
