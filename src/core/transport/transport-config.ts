import type { PreparedHooks } from '../observe/hooks.js';
import type { SdkLogger } from '../observe/logger.js';
import type { Pacing } from '../rate-limit/lazy-throttle.js';
import type { ResponseValidation, ValidationIssueListener } from './response.js';
import type { RetryPolicy } from './retry.js';

/**
 * The `fetch` the SDK sends with: the runtime's, or one the caller passes (a proxy agent, a recording double).
 * The SDK sends through ky, which calls it as `fetch(request, init)`: `request` is a `Request` holding the
 * URL, method, headers, body and signal (after the `beforeRequest` hooks), and `init` holds only options
 * ky does not know (usually empty). The runtime's own `fetch` fits this type.
 */
export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** The API key, or a function giving the key to use now (key rolling; a vault), read before each attempt. */
export type ApiKeyOption = string | (() => string | Promise<string>);

/** Everything the transport needs, resolved and checked by the client once. */
export interface TransportConfig {
  /** Origin and prefix of the API without the trailing slash and without `/v1`, which operation paths carry. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`, and redacted from every log line and error message. */
  readonly apiKey: ApiKeyOption;
  /** Reads a function `apiKey`, checks it and adds it to `apiKeys`; the string key as it is. */
  readonly readKey: () => Promise<string>;
  /** Every key this client (and its derived clients) has sent: redacted from logs and errors. Grows. */
  readonly apiKeys: string[];
  /** Headers every request carries (below a call's own `headers`). */
  readonly defaultHeaders: Readonly<Record<string, string>>;
  /** What every attempt is sent with; undefined: the runtime's `fetch`, looked up per request. */
  readonly fetch: FetchLike | undefined;
  /** Milliseconds one attempt may take, headers and body together, unless a call sets its own. */
  readonly timeout: number;
  /** Milliseconds a whole call may take (attempts and waits); null: no deadline. */
  readonly deadline: number | null;
  /** Retry bounds, unless a call sets its own `maxRetries`. */
  readonly retry: RetryPolicy;
  /** The caller's logger behind the SDK's level check and redaction. */
  readonly logger: SdkLogger;
  /** Paces attempt starts when the client was given `throttle`; null otherwise. */
  readonly throttle: Pacing | null;
  /** The client's hooks, ky's part already on the ky instance. */
  readonly hooks: PreparedHooks;
  /** What a response that breaks its schema does, unless a call says otherwise. */
  readonly validation: ResponseValidation;
  /** The largest response body read, in bytes; a larger one fails the call with a ResponseTooLargeError. */
  readonly maxResponseBytes: number;
  /** Told of every schema issue under `'warn'`. */
  readonly onValidationIssue: ValidationIssueListener | undefined;
}
