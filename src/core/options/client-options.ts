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

// A bad option is refused at construction, by name, before anything is sent.

/** Options of {@link ShopClient}; the API key and base URL also come from the environment. */
export interface ClientOptions {
  /** The key, or a function read before each attempt; never logged. @default process.env.SHOP_API_KEY */
  apiKey?: ApiKeyOption;
  /** Without `/v1`. @default process.env.SHOP_API_BASE_URL */
  baseUrl?: string;
  /** ms one attempt may take, body included. @default 30_000 */
  timeout?: number;
  /** Retries of 429, 5xx, connection errors and timeouts, whatever the method. @default 2 */
  maxRetries?: number;
  /** Longest `Retry-After` waited for; a longer 429 rejects at once. @default 60 */
  maxRetryAfterSeconds?: number;
  /** Replaces the runtime's `fetch`. */
  fetch?: FetchLike;
  /** Sent on every request; a call's `headers` go over them. */
  defaultHeaders?: RequestHeaders;
  /** Hooks run on every call (docs/hooks.md). */
  hooks?: ShopHooks;
  /** ms a whole call may take, waits included. Off by default. */
  deadline?: number;
  /** What a response breaking its schema does: reject, report, or pass unchecked. @default 'strict' */
  responseValidation?: ResponseValidation;
  /** Told of each response that broke its schema under `responseValidation: 'warn'`. */
  onValidationIssue?: ValidationIssueListener;
  /** Largest body read, in bytes (up to 256 MiB). @default 16_777_216 */
  maxResponseBytes?: number;
  /** @default console */
  logger?: Logger;
  /** How much to log. @default process.env.SHOP_LOG, else 'warn' */
  logLevel?: LogLevel;
  /** Spaces requests under the plan's per-minute limit (a figure, or `'auto'`). Off by default. */
  throttle?: ThrottleOption;
}

function configError(message: string): ShopError {
  return new ShopError(`new ShopClient(): ${message}`);
}

function validationProblem(value: unknown): string | null {
  return isResponseValidation(value) ? null : `must be 'strict', 'warn' or 'off', got ${String(value)}`;
}

function pageCountProblem(value: unknown): string | null {
  return Number.isSafeInteger(value) && (value as number) > 0
    ? null
    : `must be a positive integer, got ${String(value)}`;
}

/** Each checked option's rule, for client and call alike. */
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

/** `value`, or the error for where it was given. */
export function checkOption<T>(name: CheckedOption, value: T, at: 'client' | 'call'): T {
  const problem = RULES[name](value);
  if (problem === null) return value;
  if (at === 'call') throw new ParamsValidationError({ [name]: [problem] });
  throw configError(`${name} ${problem}`);
}

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

/** Reads the key for one attempt; each key seen joins `apiKeys`, to be redacted. */
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

/** The base URL without trailing slashes or `/v1`. */
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
  apiKey?: ApiKeyOption;
  timeout?: number;
  maxRetries?: number;
  deadline?: number;
  /** Added over the parent's. */
  headers?: RequestHeaders;
  /** Run after the parent's. */
  hooks?: ShopHooks;
  /** Its own pacing instead of the parent's. */
  throttle?: ThrottleOption;
  responseValidation?: ResponseValidation;
}

/** `parent` with a derived client's `options` over it. */
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

/** The transport's configuration from the options and the environment; throws on the first problem. */
export function resolveClientOptions(options: ClientOptions): TransportConfig {
  const apiKey = resolveApiKey(options.apiKey);
  const apiKeys = typeof apiKey === 'string' ? [apiKey] : [];
  // The SDK's tests shorten the back-off through an undeclared symbol key.
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
    // Undefined unless given: ky looks globalThis.fetch up per request (msw replaces it later).
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
