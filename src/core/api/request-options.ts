import type { ShopHooks } from '../observe/hooks.js';
import type { ResponseValidation } from '../transport/response.js';

/** Extra headers of one call; in a record, null or undefined removes a default. */
export type RequestHeaders =
  | Headers
  | ReadonlyArray<readonly [string, string]>
  | Readonly<Record<string, string | null | undefined>>;

/** Options of one call (every method's last argument), over the client's. */
export interface RequestOptions {
  /** A POST's Idempotency-Key, sent by every retry; pass your own to make your own retries safe. @default a UUID v4 */
  idempotencyKey?: string;
  /** @default the client's `timeout` */
  timeout?: number;
  /** @default the client's `maxRetries` */
  maxRetries?: number;
  /** Cancels the call, waits included. */
  signal?: AbortSignal;
  /** Applied last; null or undefined removes a default. */
  headers?: RequestHeaders;
  /** Run after the client's. */
  hooks?: ShopHooks;
  /** @default the client's `deadline` */
  deadline?: number;
  /** @default the client's `responseValidation` */
  responseValidation?: ResponseValidation;
  /** List calls: the most pages one walk may request. Unbounded by default. */
  maxPages?: number;
}
