import { parseRateLimit, type RateLimitInfo } from '../rate-limit/rate-limit.js';
import { ERROR_CLASS, ShopError } from './shop-error.js';

/** The request never got an HTTP response: DNS, refused or reset connection, TLS failure. */
export class ConnectionError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'ConnectionError';
  override readonly name: string = 'ConnectionError';
}

/** One attempt passed `timeout`, or the call passed its `deadline`. */
export class TimeoutError extends ConnectionError {
  static override readonly [ERROR_CLASS]: string = 'TimeoutError';
  override readonly name: string = 'TimeoutError';
  /** The `deadline` that ran out (ms); null when an attempt's `timeout` did. */
  readonly deadline: number | null;

  constructor(
    /** ms. */
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

/** A caller's hook threw; its error is the `cause`. Never retried. */
export class HookError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'HookError';
  override readonly name: string = 'HookError';
}

/** A 2xx response that is not JSON or not the `{status: 'ok', data}` envelope. */
export class InvalidResponseError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'InvalidResponseError';
  override readonly name: string = 'InvalidResponseError';
  /** The response's rate-limit figures. */
  readonly rateLimit: RateLimitInfo;

  constructor(
    message: string,
    readonly status: number,
    readonly headers: Headers,
  ) {
    super(message);
    this.rateLimit = parseRateLimit(headers);
  }
}

/** The body was larger than `maxResponseBytes`; not retried. */
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

/** A 3xx answer: the `baseUrl` is wrong. Never followed (the key goes nowhere else), not retried. */
export class RedirectError extends InvalidResponseError {
  static override readonly [ERROR_CLASS]: string = 'RedirectError';
  override readonly name: string = 'RedirectError';

  constructor(
    message: string,
    status: number,
    headers: Headers,
    /** The absolute `Location`, or null. */
    readonly location: string | null,
  ) {
    super(message, status, headers);
  }
}

/** One way the response broke its schema (plain data, no zod). */
export interface ResponseIssue {
  /** Where in the envelope, e.g. `['data', 3, 'starts_at']`. */
  readonly path: readonly (string | number)[];
  /** What is wrong there, in zod's words. */
  readonly message: string;
}

/** An issue path as JavaScript reads it: `data[3].starts_at`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The envelope's `data` broke the operation's schema; unknown fields and enum values never do. */
export class ResponseValidationError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'ResponseValidationError';
  override readonly name: string = 'ResponseValidationError';
  /** The response's rate-limit figures. */
  readonly rateLimit: RateLimitInfo;

  constructor(
    override readonly operation: string,
    /** Every issue; the first is in the message. */
    readonly issues: readonly ResponseIssue[],
    readonly status: number,
    readonly headers: Headers,
    /** The parsed `data`, to inspect at your own risk. */
    readonly data?: unknown,
  ) {
    const [first] = issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    const where = first ? `${formatIssuePath(first.path) || 'data'}: ${first.message}` : 'unknown issue';
    super(`The response of ${operation} does not match its schema at ${where}${more}`);
    this.rateLimit = parseRateLimit(headers);
  }
}
