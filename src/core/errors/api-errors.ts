import { parseRateLimit, parseRetryAfter, type RateLimitInfo } from '../rate-limit/rate-limit.js';
import type { ErrorCode } from './error-codes.js';
import type { AnyErrorCode, ErrorDetails } from './error-details.js';
import { ERROR_CLASS, ShopError } from './shop-error.js';

/** What a failed response's error is built from. */
export interface ApiErrorInit {
  readonly status: number;
  readonly code: string | null;
  readonly message: string;
  readonly details: Record<string, unknown>;
  readonly headers: Headers;
}

/** A non-2xx answer. Branch on `code` or `is(code)`; the subclass tells the status family. */
export class ShopApiError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'ShopApiError';
  override readonly name: string = 'ShopApiError';
  readonly status: number;
  /** `error.code`; null without an error envelope. */
  readonly code: AnyErrorCode | null;
  /** `error.details`; typed per code through {@link ShopApiError.is}. */
  readonly details: Record<string, unknown>;
  readonly headers: Headers;
  /** The response's rate-limit figures. */
  readonly rateLimit: RateLimitInfo;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.headers = init.headers;
    this.rateLimit = parseRateLimit(init.headers);
  }

  /** True when the API sent `code`; narrows `details`. Compare `err.code` for codes newer than the SDK. */
  is<Code extends ErrorCode>(
    code: Code,
  ): this is this & { readonly code: Code; readonly details: ErrorDetails<Code> };
  is(code: ErrorCode): boolean {
    return this.code === code;
  }
}

/** 400: the request was invalid. */
export class BadRequestError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'BadRequestError';
  override readonly name: string = 'BadRequestError';
}

/** 401: the key is refused. */
export class AuthenticationError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'AuthenticationError';
  override readonly name: string = 'AuthenticationError';
}

/** 402: the shop's plan does not allow the call. */
export class PaymentRequiredError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'PaymentRequiredError';
  override readonly name: string = 'PaymentRequiredError';
}

/** 403: the key lacks a permission, or the IP is not allowed. */
export class PermissionDeniedError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'PermissionDeniedError';
  override readonly name: string = 'PermissionDeniedError';
}

/** 404: no such record, or one at a location the key cannot see. */
export class NotFoundError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'NotFoundError';
  override readonly name: string = 'NotFoundError';
}

/** 405: the path exists but not with this method. */
export class MethodNotAllowedError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'MethodNotAllowedError';
  override readonly name: string = 'MethodNotAllowedError';
}

/** 409: a record's state conflicts with the request. */
export class ConflictError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'ConflictError';
  override readonly name: string = 'ConflictError';
}

/** 422: the request breaks a business rule. */
export class UnprocessableEntityError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'UnprocessableEntityError';
  override readonly name: string = 'UnprocessableEntityError';
}

/** 429: over the rate limit; retried unless the wait is too long. */
export class RateLimitError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'RateLimitError';
  override readonly name: string = 'RateLimitError';
  /** Seconds to wait: `Retry-After`, or the throttle's wait. */
  readonly retryAfter: number | null;
  /** The client's throttle refused the call: nothing was sent. */
  readonly throttled: boolean;

  constructor(init: ApiErrorInit & { readonly retryAfter?: number }) {
    super(init);
    this.throttled = init.retryAfter !== undefined;
    this.retryAfter = init.retryAfter ?? parseRetryAfter(init.headers);
  }
}

/** 5xx: the server failed; retry a POST with the same Idempotency-Key. */
export class InternalServerError extends ShopApiError {
  static override readonly [ERROR_CLASS]: string = 'InternalServerError';
  override readonly name: string = 'InternalServerError';
}

const CLASS_BY_STATUS: Record<number, typeof ShopApiError | undefined> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: PaymentRequiredError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The error of a non-2xx response, by status. */
export function createApiError(init: ApiErrorInit): ShopApiError {
  const ErrorClass =
    init.status >= 500 ? InternalServerError : (CLASS_BY_STATUS[init.status] ?? ShopApiError);
  return new ErrorClass(init);
}
