import type { PreparedHooks } from '../observe/hooks.js';
import type { SdkLogger } from '../observe/logger.js';
import type { Pacing } from '../rate-limit/lazy-throttle.js';
import type { ResponseValidation, ValidationIssueListener } from './response.js';
import type { RetryPolicy } from './retry.js';

/** A `fetch` to send with, called as `fetch(request, init)`. */
export type FetchLike = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** The API key, or a function giving it, read before each attempt. */
export type ApiKeyOption = string | (() => string | Promise<string>);

/** Everything the transport needs, resolved once by the client. */
export interface TransportConfig {
  /** Origin and prefix without trailing slash or `/v1`. */
  readonly baseUrl: string;
  readonly apiKey: ApiKeyOption;
  /** Reads a function `apiKey`, checks it and adds it to `apiKeys`. */
  readonly readKey: () => Promise<string>;
  /** Every key sent, by this client and its derived ones: redacted everywhere. */
  readonly apiKeys: string[];
  readonly defaultHeaders: Readonly<Record<string, string>>;
  /** Undefined: the runtime's `fetch`, looked up per request. */
  readonly fetch: FetchLike | undefined;
  readonly timeout: number;
  /** Null: no deadline. */
  readonly deadline: number | null;
  readonly retry: RetryPolicy;
  /** The caller's logger behind level check and redaction. */
  readonly logger: SdkLogger;
  /** Null without `throttle`. */
  readonly throttle: Pacing | null;
  /** ky's part is already on the ky instance. */
  readonly hooks: PreparedHooks;
  readonly validation: ResponseValidation;
  /** The largest response body read, in bytes. */
  readonly maxResponseBytes: number;
  readonly onValidationIssue: ValidationIssueListener | undefined;
}
