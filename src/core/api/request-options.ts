import type { ShopHooks } from '../observe/hooks.js';
import type { ResponseValidation } from '../transport/response.js';

/**
 * Extra headers of one call, in any shape `fetch` takes; in a record, null or undefined removes a default
 * header (a POST's Idempotency-Key is then generated afresh).
 */
export type RequestHeaders =
  | Headers
  | ReadonlyArray<readonly [string, string]>
  | Readonly<Record<string, string | null | undefined>>;

/** Options for one call, the last argument of every resource method; each overrides the client's setting. */
export interface RequestOptions {
  /**
   * A POST's Idempotency-Key (up to 100 characters), sent by every retry. Default: a UUID v4 per call; pass
   * your own to make your own retries safe.
   */
  idempotencyKey?: string;
  /** Milliseconds one attempt may take. @default the client's `timeout` */
  timeout?: number;
  /** Retries after the first attempt. @default the client's `maxRetries` */
  maxRetries?: number;
  /** Cancels the call, waits included; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra headers, applied last; null or undefined removes a default. Values must be Latin-1. */
  headers?: RequestHeaders;
  /** Hooks for this call only, run after the client's. */
  hooks?: ShopHooks;
  /** Milliseconds the whole call may take, waits included; then a `TimeoutError`. @default the client's `deadline` */
  deadline?: number;
  /** Response validation for this call. @default the client's `responseValidation` */
  responseValidation?: ResponseValidation;
  /** List calls only: the most pages one walk may request; then it rejects. Unbounded by default. */
  maxPages?: number;
}
