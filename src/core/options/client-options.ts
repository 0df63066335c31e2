import { readEnv } from '../../internal/env.js';
import { userAgent } from '../../internal/headers.js';
import {
  byteCountProblem,
  countProblem,
  DEFAULT_MAX_RESPONSE_BYTES,
  secondsProblem,
  timeoutProblem,
} from '../../internal/limits.js';
import { RETRY_BACKOFF, type TestOptions } from '../../internal/test-hooks.js';
import type { RequestHeaders } from '../api/request-options.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';
import { ShopError } from '../errors/shop-error.js';
import { NO_HOOKS, type PreparedHooks, prepareHooks, type ShopHooks } from '../observe/hooks.js';
import { isLogLevel, type Logger, type LogLevel, SdkLogger } from '../observe/logger.js';
import { LazyThrottle } from '../rate-limit/lazy-throttle.js';
import {
  isPacing,
  isRateLimitStore,
  MIN_REQUESTS_PER_MINUTE,
  type ThrottleOption,
} from '../rate-limit/throttle-option.js';
import { mergeHeaders } from '../transport/headers.js';
import {
  isResponseValidation,
  type ResponseValidation,
  type ValidationIssueListener,
} from '../transport/response.js';
import type { ApiKeyOption, FetchLike, TransportConfig } from '../transport/transport-config.js';

// The client's options and how they are checked: every problem is found at construction, with the option
// named, so a misconfigured client never sends a request.

/** Options of {@link ShopClient}. Every one is optional; the API key and base URL also come from the environment. */
export interface ClientOptions {
  /**
   * The API key, sent as `Authorization: Bearer <key>`; never logged. Or a function giving the key to use
   * now, called before each attempt (key rolling, a vault); every key it returns is kept out of logs and errors.
   * Headers that name `authorization` themselves (`defaultHeaders`, a derived client's or a call's `headers`)
   * are sent instead of the key's, and `authorization: null` there sends none (custom auth).
   * @default process.env.SHOP_API_KEY
   */
  apiKey?: ApiKeyOption;
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
  /**
   * A `fetch` to send with instead of the runtime's (a proxy agent, a recording double). It is called by ky
   * as `fetch(request, init)`, `request` a `Request` with the URL, method, headers, body and signal.
   */
  fetch?: FetchLike;
  /** Headers every request of this client sends (a call's `headers` go over them). */
  defaultHeaders?: RequestHeaders;
  /** Hooks run on every call of this client: ky's beforeRequest/afterResponse, and beforeRetry/beforeError. See docs/hooks.md. */
  hooks?: ShopHooks;
  /**
   * Milliseconds a whole call may take (attempts, back-off and Retry-After waits together); past it the
   * call rejects with a `TimeoutError` naming the attempts made. Off by default.
   */
  deadline?: number;
  /**
   * What a response whose `data` breaks its schema does: `'strict'` rejects with a ResponseValidationError,
   * `'warn'` returns the data and reports it (`onValidationIssue`, the logger), `'off'` skips the check.
   * @default 'strict'
   */
  responseValidation?: ResponseValidation;
  /** Told of each response that broke its schema under `responseValidation: 'warn'`. */
  onValidationIssue?: ValidationIssueListener;
  /**
   * The largest response body the client reads, in bytes (up to 256 MiB). A larger one fails the call at
   * once with a `ResponseTooLargeError`, never retried: refused at its Content-Length, or cut off as it
   * streams in, so it is never held whole; a compressed body counts as it inflates. A page of 200 records
   * is about 300 kB.
   * @default 16_777_216 (16 MiB)
   */
  maxResponseBytes?: number;
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
}

function configError(message: string): ShopError {
  return new ShopError(`new ShopClient(): ${message}`);
}

/** What is wrong with a `responseValidation` value, or null. */
function validationProblem(value: unknown): string | null {
  return isResponseValidation(value) ? null : `must be 'strict', 'warn' or 'off', got ${String(value)}`;
}

/** What is wrong with a `maxPages` value (a positive integer), or null. */
function pageCountProblem(value: unknown): string | null {
  return Number.isSafeInteger(value) && (value as number) > 0
    ? null
    : `must be a positive integer, got ${String(value)}`;
}

/** The rule of each checked option, the same for the client's, a derived client's and one call's options. */
const RULES = {
  timeout: timeoutProblem,
  deadline: timeoutProblem,
  maxRetries: countProblem,
  maxRetryAfterSeconds: secondsProblem,
  maxResponseBytes: byteCountProblem,
  maxPages: pageCountProblem,
  responseValidation: validationProblem,
} satisfies Record<string, (value: unknown) => string | null>;

/** An option {@link checkOption} checks. */
export type CheckedOption = keyof typeof RULES;

/**
 * The one checker of the options with bounds: `value` when it keeps its option's rule, else the error where it
 * was given: a `ShopError` naming the option for the client and `shop.withOptions` (`at: 'client'`), a
 * `ParamsValidationError` with the option as its field for one call (`at: 'call'`), so nothing is sent.
 */
export function checkOption<T>(name: CheckedOption, value: T, at: 'client' | 'call'): T {
  const problem = RULES[name](value);
  if (problem === null) return value;
  if (at === 'call') throw new ParamsValidationError({ [name]: [problem] });
  throw configError(`${name} ${problem}`);
}

/** A client option: `fallback` when left out, else `value` once {@link checkOption} accepts it. */
function resolveOption<T>(name: CheckedOption, value: T | undefined, fallback: T): T {
  return value === undefined ? fallback : checkOption(name, value, 'client');
}

const KEY = /^[\x21-\x7e]+$/;

function resolveApiKey(option: ApiKeyOption | undefined): ApiKeyOption {
  if (typeof option === 'function') return option;
  const apiKey = option ?? readEnv('SHOP_API_KEY');
  if (apiKey === undefined || apiKey === '') {
    throw configError('no API key: pass `apiKey` or set the SHOP_API_KEY environment variable');
  }
  if (typeof apiKey !== 'string' || !KEY.test(apiKey)) {
    throw configError('the API key must be a string of printable characters without spaces');
  }
  return apiKey;
}

/**
 * Reads the key for one attempt: a function key is called and checked, and every key seen joins `apiKeys`
 * (shared with the logger), so a rotated key is redacted as well as the first one.
 */
export function keyReader(apiKey: ApiKeyOption, apiKeys: string[]): () => Promise<string> {
  if (typeof apiKey === 'string') return () => Promise.resolve(apiKey);
  return async () => {
    let key: unknown;
    try {
      key = await apiKey();
    } catch (error) {
      throw new ShopError('The apiKey function threw; no request was sent', { cause: error });
    }
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw new ShopError('The apiKey function must return a string of printable characters without spaces');
    }
    if (!apiKeys.includes(key)) apiKeys.push(key);
    return key;
  };
}

/** The base URL without trailing slashes and without a `/v1` the caller wrote, which operation paths carry. */
function resolveBaseUrl(option: string | undefined): string {
  const raw = option ?? readEnv('SHOP_API_BASE_URL');
  if (raw === undefined || raw === '') {
    throw configError('no base URL: pass `baseUrl` or set the SHOP_API_BASE_URL environment variable');
  }
  let url: URL;
  const shown = JSON.stringify(String(raw));
  const hint = /^[\w.-]+:\d+(\/|$)/.test(String(raw)) ? ` (did you mean "http://${String(raw)}"?)` : '';
  try {
    url = new URL(raw);
  } catch {
    throw configError(
      `baseUrl must be an absolute http(s) URL such as https://api.example.com, got ${shown}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`baseUrl must be an http or https URL, got ${shown}${hint}`);
  }
  if (url.username || url.password)
    throw configError('baseUrl must not hold credentials; pass `apiKey` instead');
  if (url.search || url.hash) throw configError('baseUrl must not have a query string or fragment');
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return url.origin + path;
}

function resolveThrottle(option: ThrottleOption | undefined, logger: SdkLogger): LazyThrottle | null {
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
  return new LazyThrottle(option, logger);
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

function resolveHooks(option: ShopHooks | undefined): PreparedHooks {
  try {
    return prepareHooks(option);
  } catch (error) {
    throw configError((error as Error).message);
  }
}

function resolveHeaders(option: RequestHeaders | undefined, base: Readonly<Record<string, string>>) {
  try {
    return mergeHeaders(base, option);
  } catch (error) {
    throw configError(`defaultHeaders: ${(error as Error).message}`);
  }
}

/** What a derived client (`shop.withOptions`) may change. */
export interface DerivedOptions {
  /** Another key (or key function) for the derived client. */
  apiKey?: ApiKeyOption;
  /** Milliseconds one attempt may take. */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** Milliseconds a whole call may take. */
  deadline?: number;
  /** Headers added over the parent's default headers. */
  headers?: RequestHeaders;
  /** Hooks run after the parent's. */
  hooks?: ShopHooks;
  /** Its own pacing instead of sharing the parent's throttle. */
  throttle?: ThrottleOption;
  /** Its own response validation mode. */
  responseValidation?: ResponseValidation;
}

/** The configuration of a client derived from `parent` with `options` over it. */
export function deriveClientOptions(parent: TransportConfig, options: DerivedOptions): TransportConfig {
  const { retry } = parent;
  const apiKey = options.apiKey === undefined ? parent.apiKey : resolveApiKey(options.apiKey);
  if (typeof apiKey === 'string' && !parent.apiKeys.includes(apiKey)) parent.apiKeys.push(apiKey);
  const defaultHeaders = resolveHeaders(options.headers, parent.defaultHeaders);
  if (options.apiKey !== undefined) delete defaultHeaders.authorization;
  const childHooks = resolveHooks(options.hooks);
  return {
    ...parent,
    apiKey,
    readKey: keyReader(apiKey, parent.apiKeys),
    defaultHeaders,
    timeout: resolveOption('timeout', options.timeout, parent.timeout),
    deadline: resolveOption('deadline', options.deadline, parent.deadline),
    retry: { ...retry, maxRetries: resolveOption('maxRetries', options.maxRetries, retry.maxRetries) },
    throttle:
      options.throttle === undefined ? parent.throttle : resolveThrottle(options.throttle, parent.logger),
    // The parent's ky hooks are already on the ky instance the child extends; its SDK hooks run first.
    hooks:
      childHooks === NO_HOOKS && !parent.hooks.beforeRetry.length && !parent.hooks.beforeError.length
        ? NO_HOOKS
        : {
            ky: childHooks.ky,
            beforeRetry: [...parent.hooks.beforeRetry, ...childHooks.beforeRetry],
            beforeError: [...parent.hooks.beforeError, ...childHooks.beforeError],
          },
    validation: resolveOption('responseValidation', options.responseValidation, parent.validation),
  };
}

/** The transport's configuration from the caller's options and the environment; throws on the first problem. */
export function resolveClientOptions(options: ClientOptions): TransportConfig {
  const apiKey = resolveApiKey(options.apiKey);
  const apiKeys = typeof apiKey === 'string' ? [apiKey] : [];
  // The SDK's own tests shorten the back-off through a symbol key that ClientOptions does not declare.
  const backoff = (options as TestOptions)[RETRY_BACKOFF] ?? { baseMs: 500, capMs: 8_000 };
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    throw configError('fetch must be a function');
  if (options.onValidationIssue !== undefined && typeof options.onValidationIssue !== 'function') {
    throw configError('onValidationIssue must be a function');
  }
  const logger = new SdkLogger(options.logger ?? console, resolveLogLevel(options.logLevel), apiKeys);
  return {
    baseUrl: resolveBaseUrl(options.baseUrl),
    apiKey,
    readKey: keyReader(apiKey, apiKeys),
    apiKeys,
    defaultHeaders: resolveHeaders(options.defaultHeaders, {
      accept: 'application/json',
      'user-agent': userAgent(),
    }),
    // Undefined unless given: ky then looks globalThis.fetch up per request (msw and polyfills replace it later).
    fetch: options.fetch,
    timeout: resolveOption('timeout', options.timeout, 30_000),
    deadline: resolveOption<number | null>('deadline', options.deadline, null),
    hooks: resolveHooks(options.hooks),
    validation: resolveOption<ResponseValidation>('responseValidation', options.responseValidation, 'strict'),
    onValidationIssue: options.onValidationIssue,
    maxResponseBytes: resolveOption('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    retry: {
      maxRetries: resolveOption('maxRetries', options.maxRetries, 2),
      maxRetryAfterSeconds: resolveOption('maxRetryAfterSeconds', options.maxRetryAfterSeconds, 60),
      backoffBaseMs: backoff.baseMs,
      backoffCapMs: backoff.capMs,
    },
    logger,
    throttle: resolveThrottle(options.throttle, logger),
  };
}
