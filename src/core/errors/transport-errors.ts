import { parseRateLimit, type RateLimitInfo } from '../rate-limit/rate-limit.js';
import { ERROR_CLASS, ShopError } from './shop-error.js';

/** The request never got an HTTP response: DNS, refused or reset connection, TLS failure. */
export class ConnectionError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'ConnectionError';
  override readonly name: string = 'ConnectionError';
}

/**
 * One attempt took longer than the `timeout` option (headers and body together), or the call ran past its
 * `deadline` (attempts, back-off and Retry-After waits together).
 */
export class TimeoutError extends ConnectionError {
  static override readonly [ERROR_CLASS]: string = 'TimeoutError';
  override readonly name: string = 'TimeoutError';
  /** The `deadline` that ran out, in milliseconds; null when one attempt's `timeout` did. */
  readonly deadline: number | null;

  constructor(
    /** The limit that was exceeded, in milliseconds: the attempt's timeout, or the deadline. */
    readonly timeout: number,
    deadline?: { readonly deadline: number; readonly attemptsMade: number; readonly cause?: unknown },
  ) {
    super(
      deadline
        ? `Deadline of ${deadline.deadline} ms passed after ${deadline.attemptsMade} attempt${deadline.attemptsMade === 1 ? '' : 's'}`
        : `Request timed out after ${timeout} ms`,
      deadline?.cause === undefined ? undefined : { cause: deadline.cause },
    );
    this.deadline = deadline ? deadline.deadline : null;
  }
}

/** A hook the caller gave (`hooks` of the client or the call) threw; its error is the `cause`. Never retried. */
export class HookError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'HookError';
  override readonly name: string = 'HookError';
}

/** A 2xx response that is not JSON or not the `{status: 'ok', data}` envelope. */
export class InvalidResponseError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'InvalidResponseError';
  override readonly name: string = 'InvalidResponseError';
  /** The response's rate-limit figures, as on `ShopApiError`: the request counted against the limit. */
  readonly rateLimit: RateLimitInfo;

  constructor(
    message: string,
    /** The HTTP status. */
    readonly status: number,
    /** The response headers. */
    readonly headers: Headers,
  ) {
    super(message);
    this.rateLimit = parseRateLimit(headers);
  }
}

/**
 * The response body was larger than the client's `maxResponseBytes` (16 MiB by default): refused at its
 * Content-Length, or cut off while it streamed in, never held whole. Not retried: the same request would
 * get the same answer. Narrow the request (a smaller `limit`) or raise `maxResponseBytes`.
 */
export class ResponseTooLargeError extends InvalidResponseError {
  static override readonly [ERROR_CLASS]: string = 'ResponseTooLargeError';
  override readonly name: string = 'ResponseTooLargeError';

  constructor(
    message: string,
    status: number,
    headers: Headers,
    /** The `maxResponseBytes` the body passed. */
    readonly maxResponseBytes: number,
  ) {
    super(message, status, headers);
  }
}

/**
 * The API answered a 3xx. The API never redirects (reference, webhooks section: a 3xx is a failure), so
 * the SDK never follows one: the request goes to no other origin, the key with it, and no other server's
 * answer is taken as the result. A 3xx means the `baseUrl` is not the API's (http for https, a path too
 * many, a proxy or captive portal in between). Not retried: the same request gets the same answer.
 */
export class RedirectError extends InvalidResponseError {
  static override readonly [ERROR_CLASS]: string = 'RedirectError';
  override readonly name: string = 'RedirectError';

  constructor(
    message: string,
    status: number,
    headers: Headers,
    /** Where the answer pointed (its `Location`, made absolute), or null when it named no place. */
    readonly location: string | null,
  ) {
    super(message, status, headers);
  }
}

/** One way the response broke its schema. Plain data, so this module needs no zod. */
export interface ResponseIssue {
  /** Where in the envelope, e.g. `['data', 3, 'starts_at']`. */
  readonly path: readonly (string | number)[];
  /** What is wrong there, in zod's words, e.g. `Invalid input: expected number, received string`. */
  readonly message: string;
}

/** Renders an issue path the way JavaScript reads it: `data[3].starts_at`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * The response was the envelope, but `data` did not match the operation's schema (a field of the wrong
 * type, a missing required field). Unknown fields and enum values never cause it.
 */
export class ResponseValidationError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'ResponseValidationError';
  override readonly name: string = 'ResponseValidationError';
  /** The response's rate-limit figures, as on `ShopApiError`: the request counted against the limit. */
  readonly rateLimit: RateLimitInfo;

  constructor(
    /** The operation, e.g. `range.reservations.retrieve`. */
    override readonly operation: string,
    /** Every issue found, the first one also in the message. */
    readonly issues: readonly ResponseIssue[],
    /** The HTTP status. */
    readonly status: number,
    /** The response headers. */
    readonly headers: Headers,
    /** The `data` the server sent, as parsed JSON, to inspect or use at your own risk. */
    readonly data?: unknown,
  ) {
    const [first] = issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    const where = first ? `${formatIssuePath(first.path) || 'data'}: ${first.message}` : 'unknown issue';
    super(`The response of ${operation} does not match its schema at ${where}${more}`);
    this.rateLimit = parseRateLimit(headers);
  }
}
