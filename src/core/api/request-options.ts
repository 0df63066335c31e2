import type { ShopHooks } from '../observe/hooks.js';
import type { ResponseValidation } from '../transport/response.js';

/**
 * Extra headers of one call, in any shape `fetch` takes: a `Headers`, `[name, value]` pairs, or a record.
 * In a record, a null or undefined value removes that header from the SDK's defaults (`User-Agent`,
 * `Accept`, ...); a POST's Idempotency-Key is never removed, a fresh one is generated instead.
 */
export type RequestHeaders =
  | Headers
  | ReadonlyArray<readonly [string, string]>
  | Readonly<Record<string, string | null | undefined>>;

/**
 * Options for one call, the last argument of every resource method. Each overrides the client's setting
 * for this call only.
 */
export interface RequestOptions {
  /**
   * The Idempotency-Key of a POST (up to 100 characters). Default: a UUID v4 generated for the call. Every
   * retry of the call sends the same key; pass your own to make a retry of your own (after a crash, from a
   * queue) safe too.
   * @example { idempotencyKey: `booking-${order.id}` }
   */
  idempotencyKey?: string;
  /**
   * Milliseconds one attempt may take, headers and body together.
   * @default the client's `timeout` (30 000)
   */
  timeout?: number;
  /**
   * Retries after the first attempt.
   * @default the client's `maxRetries` (2)
   */
  maxRetries?: number;
  /** Cancels the call, including any wait between retries; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Extra request headers, applied last (names are case-insensitive); a null or undefined value removes a
   * default header. Values must be Latin-1, as HTTP requires: anything else is refused before sending.
   * @example { headers: { 'X-Request-Id': requestId } }
   */
  headers?: RequestHeaders;
  /** Hooks for this call only, run after the client's. See docs/hooks.md. */
  hooks?: ShopHooks;
  /**
   * Milliseconds the whole call may take: attempts, back-off and Retry-After waits together. Each attempt's
   * timeout and each wait is capped by what remains; past it the call rejects with a `TimeoutError` naming
   * the attempts made.
   * @default the client's `deadline` (none)
   */
  deadline?: number;
  /**
   * What a response breaking its schema does for this call: `'strict'` rejects, `'warn'` returns the data
   * and reports it, `'off'` skips the check.
   * @default the client's `responseValidation` ('strict')
   */
  responseValidation?: ResponseValidation;
  /**
   * List calls only: the most pages one walk (`for await`, `.pages()`, `.toArray()`, `getNextPage()`) may
   * request, the first included. The walk rejects with a `ShopError` rather than request one more, so a
   * server that keeps answering a new cursor cannot keep it going forever. Unbounded by default.
   */
  maxPages?: number;
}
