// The error classes of core (webhooks' own are in src/webhooks/errors.ts); none imports zod or ky.

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
