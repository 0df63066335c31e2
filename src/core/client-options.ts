import { readEnv } from '../internal/env.js';
import { countProblem, secondsProblem, timeoutProblem } from '../internal/limits.js';
import { RETRY_BACKOFF, type RetryBackoff } from '../internal/test-hooks.js';
import { ShopError } from './errors/shop-error.js';
import { isLogLevel, type Logger, type LogLevel, SdkLogger } from './logger.js';
import {
  isPacing,
  isRateLimitStore,
  MIN_REQUESTS_PER_MINUTE,
  Throttle,
  type ThrottleOption,
} from './throttle.js';
import type { FetchLike, TransportConfig } from './transport.js';

// The client's options and how they are checked: every problem is found at construction, with the option
// named, so a misconfigured client never sends a request.

/** Options of {@link ShopClient}. Every one is optional; the API key and base URL also come from the environment. */
export interface ClientOptions {
  /**
   * The API key, sent as `Authorization: Bearer <key>`; never logged.
   * @default process.env.SHOP_API_KEY
   */
  apiKey?: string;
  /**
   * Where the API lives, without `/v1` (the SDK adds it; a trailing `/v1` or slash is accepted and not doubled).
   * @default process.env.SHOP_API_BASE_URL
   * @example 'https://api.example-shop.com'
   */
  baseUrl?: string;
  /**
   * Milliseconds one attempt may take, headers and body together.
   * @default 30_000
   */
  timeout?: number;
  /**
   * Retries after the first attempt, for 429, 500/502/503/504, `IDEMPOTENCY_IN_PROGRESS`, connection errors
   * and timeouts, whatever the method (a POST carries its Idempotency-Key; a PATCH sets absolute values).
   * Nothing else is retried.
   * @default 2
   */
  maxRetries?: number;
  /**
   * The longest `Retry-After` the SDK waits for. A 429 asking for longer is raised at once as a
   * `RateLimitError` carrying `retryAfter`, so a daily cap does not hang a request for hours.
   * @default 60
   */
  maxRetryAfterSeconds?: number;
  /** A `fetch` to send with instead of the runtime's (a proxy agent, a recording double). */
  fetch?: FetchLike;
  /**
   * Where to log; lines never hold the API key.
   * @default console
   */
  logger?: Logger;
  /**
   * How much to log; `debug` logs method, path, status, attempt and duration of every attempt.
   * @default process.env.SHOP_LOG, else 'warn'
   */
  logLevel?: LogLevel;
  /**
   * Spaces requests to stay under the plan's per-minute limit instead of collecting 429s: a number of
   * requests per minute (with a `store` and `key`, shared by every process of the shop), or `'auto'` to pace
   * from the `X-RateLimit-*` headers. A wait for a slot longer than `maxRetryAfterSeconds` fails the call at
   * once with a `RateLimitError` (`throttled: true`). Off by default.
   * @example { throttle: { requestsPerMinute: 60 } } // Established plan, this client alone
   * @example { throttle: { requestsPerMinute: 60, store: new RedisRateLimitStore(redis), key: shopId } }
   */
  throttle?: ThrottleOption;
  /** @internal Back-off timing for the SDK's own tests. */
  [RETRY_BACKOFF]?: RetryBackoff;
}

function configError(message: string): ShopError {
  return new ShopError(`new ShopClient(): ${message}`);
}

function resolveApiKey(option: string | undefined): string {
  const apiKey = option ?? readEnv('SHOP_API_KEY');
  if (apiKey === undefined || apiKey === '') {
    throw configError('no API key: pass `apiKey` or set the SHOP_API_KEY environment variable');
  }
  if (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw configError('the API key must be a string of printable characters without spaces');
  }
  return apiKey;
}

/** The base URL without trailing slashes and without a `/v1` the caller wrote, which operation paths carry. */
function resolveBaseUrl(option: string | undefined): string {
  const raw = option ?? readEnv('SHOP_API_BASE_URL');
  if (raw === undefined || raw === '') {
    throw configError('no base URL: pass `baseUrl` or set the SHOP_API_BASE_URL environment variable');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw configError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(String(raw))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`baseUrl must use http or https, got ${url.protocol}`);
  }
  if (url.username || url.password)
    throw configError('baseUrl must not hold credentials; pass `apiKey` instead');
  if (url.search || url.hash) throw configError('baseUrl must not have a query string or fragment');
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return url.origin + path;
}

/** A numeric option: the fallback when left out, else `value` when `problemOf` finds nothing wrong. */
function resolveNumber(
  value: number | undefined,
  fallback: number,
  name: string,
  problemOf: (value: unknown) => string | null,
): number {
  if (value === undefined) return fallback;
  const problem = problemOf(value);
  if (problem !== null) throw configError(`${name} ${problem}`);
  return value;
}

function resolveThrottle(option: ThrottleOption | undefined, logger: SdkLogger): Throttle | null {
  if (option === undefined) return null;
  if (option !== 'auto' && !isPacing(option?.requestsPerMinute)) {
    throw configError(
      `throttle must be 'auto' or { requestsPerMinute: <positive number, at least ${MIN_REQUESTS_PER_MINUTE}> }`,
    );
  }
  if (option !== 'auto' && option.store !== undefined && !isRateLimitStore(option.store)) {
    throw configError(
      'throttle.store must be a rate-limit store (MemoryRateLimitStore, RedisRateLimitStore)',
    );
  }
  if (
    option !== 'auto' &&
    option.key !== undefined &&
    (typeof option.key !== 'string' || option.key === '')
  ) {
    throw configError('throttle.key must be a non-empty string naming the shop');
  }
  return new Throttle(option, logger);
}

function resolveLogLevel(option: LogLevel | undefined): LogLevel {
  if (option !== undefined) {
    if (!isLogLevel(option))
      throw configError(`logLevel must be debug, info, warn, error or off, got ${option}`);
    return option;
  }
  const fromEnv = readEnv('SHOP_LOG');
  return isLogLevel(fromEnv) ? fromEnv : 'warn';
}

/** The transport's configuration from the caller's options and the environment; throws on the first problem. */
export function resolveClientOptions(options: ClientOptions): TransportConfig {
  const apiKey = resolveApiKey(options.apiKey);
  const backoff = options[RETRY_BACKOFF] ?? { baseMs: 500, capMs: 8_000 };
  const logger = new SdkLogger(options.logger ?? console, resolveLogLevel(options.logLevel), [apiKey]);
  return {
    baseUrl: resolveBaseUrl(options.baseUrl),
    apiKey,
    // Looked up per call, not captured: test tools (msw) and polyfills replace globalThis.fetch later.
    fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    timeout: resolveNumber(options.timeout, 30_000, 'timeout', timeoutProblem),
    retry: {
      maxRetries: resolveNumber(options.maxRetries, 2, 'maxRetries', countProblem),
      maxRetryAfterSeconds: resolveNumber(
        options.maxRetryAfterSeconds,
        60,
        'maxRetryAfterSeconds',
        secondsProblem,
      ),
      backoffBaseMs: backoff.baseMs,
      backoffCapMs: backoff.capMs,
    },
    logger,
    throttle: resolveThrottle(options.throttle, logger),
  };
}
