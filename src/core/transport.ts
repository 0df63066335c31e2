import { mergeHeaders, userAgent } from '../internal/headers.js';
import { countProblem, timeoutProblem } from '../internal/limits.js';
import { compilePath, type PathBuilder } from '../internal/path.js';
import { redact, redactedCause } from '../internal/redact.js';
import { openEnvelope } from './envelope.js';
import { RateLimitError } from './errors/api-errors.js';
import { ParamsValidationError } from './errors/params-validation-error.js';
import {
  ConnectionError,
  InvalidResponseError,
  ResponseValidationError,
  TimeoutError,
} from './errors/transport-errors.js';
import { resolveIdempotencyKey } from './idempotency.js';
import type { SdkLogger } from './logger.js';
import type { HttpMethod, Operation } from './operation.js';
import type { ListMeta, PageSender } from './pagination.js';
import { checkParams, type RequestParams } from './params.js';
import { encodeQuery } from './query.js';
import type { RequestOptions } from './request-options.js';
import { type RetryPolicy, withRetries } from './retry.js';
import type { Throttle } from './throttle.js';
import { type CheckResult, check, checkList } from './validation.js';

/** The `fetch` the SDK sends with: the runtime's, or one the caller passes (a proxy agent, a test double). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Everything the transport needs, resolved and checked by the client once. */
export interface TransportConfig {
  /** Origin and prefix of the API without the trailing slash and without `/v1`, which operation paths carry. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`, and redacted from every log line and error message. */
  readonly apiKey: string;
  /** What every attempt is sent with. */
  readonly fetch: FetchLike;
  /** Milliseconds one attempt may take, headers and body together, unless a call sets its own. */
  readonly timeout: number;
  /** Retry bounds, unless a call sets its own `maxRetries`. */
  readonly retry: RetryPolicy;
  /** The caller's logger behind the SDK's level check and redaction. */
  readonly logger: SdkLogger;
  /** Paces attempt starts when the client was given `throttle`; null otherwise. */
  readonly throttle: Throttle | null;
}

/** A validated single-record result and the response it came in. */
export interface Received<T> {
  readonly data: T;
  readonly response: Response;
}

/** A validated page: its items, its `meta`, and the response. */
export interface ReceivedPage<T> extends Received<T[]> {
  readonly meta: ListMeta;
}

interface Prepared {
  readonly label: string;
  readonly url: string;
  readonly method: HttpMethod;
  /** Copied into every attempt's init: a custom fetch that mutates its headers changes nothing else. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** A DELETE's result when the server answers 2xx with no body at all (204 No Content). */
  readonly emptyResult: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Sends calls: builds the URL and headers, sends with `fetch`, retries with p-retry, opens the envelope and
 * validates `data`. Knows no resource: everything per endpoint comes from its `Operation`.
 */
export class Transport {
  readonly #config: TransportConfig;
  readonly #secrets: readonly string[];
  readonly #headers: Readonly<Record<string, string>>;
  readonly #jsonHeaders: Readonly<Record<string, string>>;
  readonly #paths = new WeakMap<Operation, PathBuilder>();

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#secrets = [config.apiKey];
    this.#headers = {
      authorization: `Bearer ${config.apiKey}`,
      accept: 'application/json',
      'user-agent': userAgent(),
    };
    this.#jsonHeaders = { ...this.#headers, 'content-type': 'application/json' };
  }

  /** One single-record call: `data` validated against `operation.result`. */
  async request<T>(
    operation: Operation,
    params: RequestParams,
    options?: RequestOptions,
  ): Promise<Received<T>> {
    checkParams(operation, params);
    const { envelope, response } = await this.#send(this.#prepare(operation, params, options), options);
    const data = this.#validated(operation, response, check(operation.result, envelope.data));
    return { data: data as T, response };
  }

  /**
   * The pages of one cursor-list call. Params are checked and the request built once, for the first page;
   * a later page differs only by its cursor, so it carries the same query, headers and options and is not
   * checked again. Every item is validated against `operation.result`, and `meta` checked.
   */
  pages<T>(operation: Operation, params: RequestParams, options?: RequestOptions): PageSender<T> {
    let first: { readonly prepared: Prepared; readonly cursor: unknown } | undefined;
    return async (cursor) => {
      if (!first) {
        checkParams(operation, params);
        // The caller's own cursor (resuming a walk) is replaced by the server's on later pages.
        const { cursor: given, ...query } = params.query ?? {};
        first = { prepared: this.#prepare(operation, { ...params, query }, options), cursor: given };
      }
      const next = cursor ?? first.cursor;
      const prepared =
        next === undefined || next === null ? first.prepared : withQuery(first.prepared, { cursor: next });
      const { envelope, response } = await this.#send(prepared, options);
      const meta = envelope.meta;
      if (!isListMeta(meta)) {
        throw new InvalidResponseError(
          `Expected list meta {has_more, next_cursor} from ${operation.id}, got ${JSON.stringify(meta ?? null)}`,
          response.status,
          response.headers,
        );
      }
      const data = this.#validated(operation, response, checkList(operation.result, envelope.data));
      return { data: data as T[], meta, response };
    };
  }

  #validated<T>(operation: Operation, response: Response, result: CheckResult<T>): T {
    if (result.ok) return result.value;
    const issues = result.issues.map((issue) => ({ path: ['data', ...issue.path], message: issue.message }));
    throw new ResponseValidationError(operation.id, issues, response.status, response.headers);
  }

  async #send(prepared: Prepared, options: RequestOptions | undefined) {
    const { retry, timeout } = this.#config;
    const policy =
      options?.maxRetries === undefined ? retry : { ...retry, maxRetries: checkCount(options.maxRetries) };
    const attemptTimeout = options?.timeout === undefined ? timeout : checkTimeout(options.timeout);
    const signal = options?.signal;
    return withRetries(
      (attempt) => this.#attempt(prepared, attempt, attemptTimeout, signal),
      policy,
      signal,
      (error, delay, attempt) => this.#logFailure(prepared, error, delay, attempt, policy),
    );
  }

  /** The request of a call whose params were checked: URL, headers and body, built once for all attempts. */
  #prepare(operation: Operation, params: RequestParams, options: RequestOptions | undefined): Prepared {
    let buildPath = this.#paths.get(operation);
    if (!buildPath) {
      buildPath = compilePath(operation.path, operation.pathParams, operation.id);
      this.#paths.set(operation, buildPath);
    }
    const path = buildPath(params.path);
    const body = params.body === undefined ? undefined : serialise(operation, params.body);
    const base = body === undefined ? this.#headers : this.#jsonHeaders;
    const headers = options?.headers ? mergeHeaders(base, options.headers) : base;
    return {
      label: `${operation.method} ${path}`,
      url: this.#config.baseUrl + path + encodeQuery(params.query),
      method: operation.method,
      headers:
        operation.method === 'POST'
          ? {
              ...headers,
              'idempotency-key': resolveIdempotencyKey(options?.idempotencyKey ?? headers['idempotency-key']),
            }
          : headers,
      body,
      emptyResult: operation.method === 'DELETE' ? deletedStub(operation, params) : undefined,
    };
  }

  async #attempt(prepared: Prepared, attempt: number, timeout: number, signal: AbortSignal | undefined) {
    const { fetch, logger, throttle } = this.#config;
    if (throttle) await throttle.acquire(signal, this.#config.retry.maxRetryAfterSeconds * 1000);
    // An abort that landed after the throttle's wait ended fired no listener; from here to fetch() nothing
    // awaits, so the listener below covers the rest. Checked before fetch, so not even a custom one is called.
    if (signal?.aborted) throw signal.reason;
    const started = logger.debugEnabled ? performance.now() : 0;
    // One controller per attempt covers headers and body; the caller's signal is linked by a listener,
    // which costs far less per request than AbortSignal.any.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const onAbort = signal ? () => controller.abort(signal.reason) : undefined;
    if (onAbort) signal?.addEventListener('abort', onAbort, { once: true });
    let response: Response;
    let text: string;
    try {
      const init: RequestInit = {
        method: prepared.method,
        headers: { ...prepared.headers },
        body: prepared.body,
        signal: controller.signal,
      };
      response = await fetch(prepared.url, init);
      text = await response.text();
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      const error = timedOut ? new TimeoutError(timeout) : connectionError(cause, this.#secrets);
      if (logger.debugEnabled)
        logger.debug(`${prepared.label} -> ${error.name} (attempt ${attempt}, ${elapsed(started)})`);
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
    if (throttle) {
      throttle.observe(response.headers);
      if (response.status === 429) throttle.rateLimited(response.headers);
    }
    if (logger.debugEnabled)
      logger.debug(`${prepared.label} -> ${response.status} (attempt ${attempt}, ${elapsed(started)})`);
    return { envelope: openEnvelope(response, text, this.#secrets, prepared.emptyResult), response };
  }

  #logFailure(
    prepared: Prepared,
    error: Error,
    delay: number | null,
    attempt: number,
    policy: RetryPolicy,
  ): void {
    const { logger } = this.#config;
    if (delay !== null) {
      logger.info(
        `${prepared.label} failed (${describe(error)}); retry ${attempt} of ${policy.maxRetries} in ${Math.round(delay)} ms`,
      );
    } else if (error instanceof RateLimitError && error.retryAfter !== null) {
      logger.warn(
        `${prepared.label}: not waiting Retry-After ${error.retryAfter} s, over maxRetryAfterSeconds (${policy.maxRetryAfterSeconds})`,
      );
    }
  }
}

/** `prepared` with `extra` added to its query string. */
function withQuery(prepared: Prepared, extra: Readonly<Record<string, unknown>>): Prepared {
  const added = encodeQuery(extra);
  if (added === '') return prepared;
  const url = prepared.url.includes('?') ? `${prepared.url}&${added.slice(1)}` : prepared.url + added;
  return { ...prepared, url };
}

/**
 * What a DELETE answered with no body resolves to: `{ id, deleted: true }`, the id taken from the path's
 * last parameter (a number where the path takes an integer), the shape the API's deletion events carry.
 */
function deletedStub(operation: Operation, params: RequestParams): Record<string, unknown> {
  const last = operation.pathParams[operation.pathParams.length - 1];
  const value = last === undefined ? undefined : params.path?.[last.name];
  if (value === undefined) return { deleted: true };
  return { id: last?.type === 'integer' ? Number(value) : value, deleted: true };
}

/** A usable `meta`: a boolean `has_more`, and a cursor to follow whenever it is true. */
function isListMeta(meta: unknown): meta is ListMeta {
  if (typeof meta !== 'object' || meta === null) return false;
  const { has_more: hasMore, next_cursor: cursor } = meta as Record<string, unknown>;
  if (hasMore === true) return typeof cursor === 'string' && cursor !== '';
  return hasMore === false && (cursor === undefined || cursor === null || typeof cursor === 'string');
}

function serialise(operation: Operation, body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ParamsValidationError(
      { body: [`cannot be sent as JSON: ${(error as Error).message}`] },
      operation.id,
    );
  }
}

/**
 * A failed fetch as a ConnectionError. The runtime's text may quote the URL or headers, so the message and
 * the kept `cause` (which util.inspect prints, chain and all) are redacted copies, never the raw error.
 */
function connectionError(cause: unknown, secrets: readonly string[]): ConnectionError {
  const reason = redact(cause instanceof Error ? cause.message : String(cause), secrets);
  const code = (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return new ConnectionError(`Connection error: ${reason}${typeof code === 'string' ? ` (${code})` : ''}`, {
    cause: redactedCause(cause, secrets),
  });
}

function describe(error: Error): string {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? `HTTP ${status}` : error.name;
}

function elapsed(started: number): string {
  return `${(performance.now() - started).toFixed(1)} ms`;
}

/** A per-call `maxRetries`: a non-negative integer. */
export function checkCount(value: number): number {
  const problem = countProblem(value);
  if (problem !== null) throw new ParamsValidationError({ maxRetries: [problem] });
  return value;
}

/** A per-call `timeout`: positive milliseconds no larger than setTimeout accepts. */
export function checkTimeout(value: number): number {
  const problem = timeoutProblem(value);
  if (problem !== null) throw new ParamsValidationError({ timeout: [problem] });
  return value;
}
