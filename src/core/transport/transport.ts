import type { KyInstance, Options as KyOptions } from 'ky';
import { loadOnce } from '../../internal/load-once.js';
import { redact, redactedCause } from '../../internal/redact.js';
import type { Operation } from '../api/operation.js';
import type { ListMeta, PageSender } from '../api/pagination.js';
import type { RequestParams } from '../api/params.js';
import type { RequestOptions } from '../api/request-options.js';
import { RateLimitError } from '../errors/api-errors.js';
import { isShopError, ShopError } from '../errors/shop-error.js';
import { HookError, ResponseTooLargeError, TimeoutError } from '../errors/transport-errors.js';
import {
  NO_HOOKS,
  type PreparedHooks,
  prepareHooks,
  runBeforeError,
  runBeforeRetry,
} from '../observe/hooks.js';
import { tracingChannels } from '../observe/tracing.js';
import { checkOption } from '../options/client-options.js';
import { type Checker, checker, checkParams } from '../validation/lazy-validation.js';
import { CallState } from './call.js';
import { type BaseHeaders, baseHeaders, bearer, type Prepared, prepare, withQuery } from './request.js';
import { accepted, openEnvelope, type ResponseValidation } from './response.js';
import { type RetryPolicy, withRetries } from './retry.js';
import type { TransportConfig } from './transport-config.js';
import {
  type AttemptInit,
  aborted,
  callersFetch,
  connectionError,
  fetchWithAttemptSignal,
  loadKy,
  readBody,
  within,
} from './wire.js';

export type { FetchLike, TransportConfig } from './transport-config.js';

/** A validated single-record result with its response and call. */
export interface Received<T> {
  readonly data: T;
  readonly response: Response;
  readonly call: CallState;
}

/** Client settings with the call's options over them. */
interface CallSettings {
  readonly policy: RetryPolicy;
  readonly timeout: number;
  readonly signal: AbortSignal | undefined;
  readonly hooks: PreparedHooks;
  readonly validation: ResponseValidation;
}

const channels = tracingChannels();

/** How long `beforeError` hooks may run past the deadline or an abort. */
const HOOK_GRACE_MS = 1_000;
const HOOKS_CUT_OFF = Symbol('hooks cut off');

/** Whether `hooks` has afterResponse hooks (ky hands them response clones). */
function cloning(hooks: PreparedHooks): boolean {
  return (hooks.ky?.afterResponse?.length ?? 0) > 0;
}

/** Sends calls through one ky instance; everything per endpoint comes from its `Operation`. */
export class Transport {
  readonly #config: TransportConfig;
  /** Built on the first send, so ky is not imported with the entry. */
  #ky: KyInstance | undefined;
  readonly #kyOptions: KyOptions;
  readonly #parent: Transport | undefined;
  readonly #headers: BaseHeaders;
  /** `Authorization` of a string key; null for a key function. */
  readonly #authorization: string | null;
  #defaults: CallSettings | undefined;
  /** Only then is a context passed to ky. */
  readonly #kyHooks: boolean;
  /** afterResponse hooks get response clones. */
  readonly #cloningHooks: boolean;
  constructor(config: TransportConfig, parent?: Transport) {
    this.#config = config;
    // ky's retry, timeout and redirects are off: p-retry retries, our timeout covers the body too, and a
    // followed 3xx would send the request to another origin (response.ts: RedirectError).
    const kyOptions: KyOptions = {
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
      fetch: config.fetch ? callersFetch(config.fetch) : fetchWithAttemptSignal,
    };
    if (config.hooks.ky) kyOptions.hooks = config.hooks.ky;
    this.#kyOptions = kyOptions;
    this.#parent = parent;
    this.#kyHooks = Boolean(config.hooks.ky) || (parent ? parent.#kyHooks : false);
    this.#cloningHooks = cloning(config.hooks) || (parent ? parent.#cloningHooks : false);
    this.#headers = baseHeaders(config.defaultHeaders);
    this.#authorization = typeof config.apiKey === 'string' ? bearer(config.apiKey) : null;
  }

  /** A transport sharing this one's ky instance (extended) and API keys. */
  derive(config: TransportConfig): Transport {
    return new Transport(config, this);
  }

  /** ky, imported on the first send; a failed load is retried next time. */
  readonly #kyInstance: () => Promise<KyInstance> = loadOnce(async () => {
    try {
      const parent = this.#parent;
      this.#ky = parent
        ? (parent.#ky ?? (await parent.#kyInstance())).extend(this.#kyOptions)
        : (await loadKy()).create(this.#kyOptions);
      return this.#ky;
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new ShopError(`Could not load the HTTP client (ky), nothing was sent: ${why}`, { cause });
    }
  });

  /** The configuration, for {@link Transport.derive}. */
  get config(): TransportConfig {
    return this.#config;
  }

  /** One single-record call: `data` validated against `operation.result`. */
  async request<T>(
    operation: Operation,
    params: RequestParams,
    options?: RequestOptions,
  ): Promise<Received<T>> {
    // Synchronous after the first call, which awaits the schemas' chunk.
    const found = checker(operation);
    const loaded = found instanceof Promise ? await found : found;
    // A promise only when a guard refused: the schemas load to name the fields.
    const refused = checkParams(operation, loaded, params);
    if (refused) await refused;
    const settings = this.#settings(options);
    const prepared = this.#prepare(operation, loaded, params, options);
    const call = this.#call(operation, prepared, options);
    const { data, response } = await this.#send(prepared, call, settings);
    return { data: data as T, response, call };
  }

  /** The pages of one cursor-list call: checked and built once; later pages differ only by cursor. */
  pages<T>(operation: Operation, params: RequestParams, options?: RequestOptions): PageSender<T> {
    let first:
      | { readonly prepared: Prepared; readonly cursor: unknown; readonly settings: CallSettings }
      | undefined;
    const maxPages = options?.maxPages;
    const send = async (cursor: string | undefined) => {
      if (!first) {
        if (maxPages !== undefined) checkOption('maxPages', maxPages, 'call');
        const found = checker(operation);
        const loaded = found instanceof Promise ? await found : found;
        const refused = checkParams(operation, loaded, params);
        if (refused) await refused;
        const { cursor: given, ...query } = params.query ?? {};
        const prepared = this.#prepare(operation, loaded, { ...params, query }, options);
        first = { prepared, cursor: given, settings: this.#settings(options) };
      }
      const next = cursor ?? first.cursor;
      const prepared =
        next === undefined || next === null ? first.prepared : withQuery(first.prepared, { cursor: next });
      const call = this.#call(operation, prepared, options, true);
      const { data, meta, response } = await this.#send(prepared, call, first.settings);
      return { data: data as T[], meta: meta as ListMeta, response, call };
    };
    return maxPages === undefined ? send : Object.assign(send, { maxPages });
  }

  #settings(options: RequestOptions | undefined): CallSettings {
    const { retry, timeout, validation } = this.#config;
    if (!options) {
      this.#defaults ??= { policy: retry, timeout, signal: undefined, hooks: NO_HOOKS, validation };
      return this.#defaults;
    }
    return {
      policy:
        options.maxRetries === undefined
          ? retry
          : { ...retry, maxRetries: checkOption('maxRetries', options.maxRetries, 'call') },
      timeout: options.timeout === undefined ? timeout : checkOption('timeout', options.timeout, 'call'),
      signal: options.signal,
      hooks: options.hooks === undefined ? NO_HOOKS : prepareHooks(options.hooks),
      validation:
        options.responseValidation === undefined
          ? validation
          : checkOption('responseValidation', options.responseValidation, 'call'),
    };
  }

  #call(
    operation: Operation,
    prepared: Prepared,
    options: RequestOptions | undefined,
    list = false,
  ): CallState {
    const deadline =
      options?.deadline === undefined
        ? this.#config.deadline
        : checkOption('deadline', options.deadline, 'call');
    return new CallState(
      operation,
      list,
      prepared.idempotencyKey,
      deadline === null ? null : performance.now() + deadline,
      deadline,
    );
  }

  /** Runs the call's attempts, traced when someone listens on `shop-mgmt:request`. */
  #send(prepared: Prepared, call: CallState, settings: CallSettings) {
    const channel = channels?.request;
    if (!channel?.hasSubscribers) return this.#run(prepared, call, settings);
    call.trace = {
      operation: call.operation,
      method: call.method,
      path: call.path,
      idempotencyKey: call.idempotencyKey,
      baseUrl: this.#config.baseUrl,
      rateLimitRemaining: null,
      status: null,
      attempts: 0,
      elapsedMs: null,
    };
    return channel.tracePromise(() => this.#run(prepared, call, settings), call.trace);
  }

  async #run(prepared: Prepared, call: CallState, settings: CallSettings) {
    try {
      const result = await withRetries(
        () => this.#attempt(prepared, call, settings),
        settings.policy,
        settings.signal,
        (error, delay, attempt) => this.#onFailure(prepared, call, settings, error, delay, attempt),
      );
      call.finish(result.response.status, true);
      return result;
    } catch (error) {
      const { apiKeys } = this.#config;
      call.doubt(error);
      call.finish((error as { status?: number }).status ?? null, false);
      call.stamp(error);
      scrubError(error, apiKeys);
      if (this.#config.hooks === NO_HOOKS && settings.hooks === NO_HOOKS) throw error;
      const context = call.context(call.startedAt);
      const hooks = async () => {
        const replaced = await runBeforeError(this.#config.hooks, error as Error, context);
        return runBeforeError(settings.hooks, replaced, context);
      };
      let final: Error;
      try {
        // A hook that never settles is cut off at the deadline (plus a grace) or abort.
        const bound =
          call.deadlineAt === null ? Number.POSITIVE_INFINITY : Math.max(call.remaining(), HOOK_GRACE_MS);
        const signal = settings.signal?.aborted ? undefined : settings.signal;
        final = await within(hooks(), bound, signal, () => HOOKS_CUT_OFF);
      } catch (thrown) {
        if (thrown !== HOOKS_CUT_OFF) throw thrown;
        final = error as Error;
      }
      call.stamp(final);
      scrubError(final, apiKeys);
      throw final;
    }
  }

  #prepare(
    operation: Operation,
    loaded: Checker,
    params: RequestParams,
    options: RequestOptions | undefined,
  ): Prepared {
    return prepare(this.#config.baseUrl, this.#headers, operation, loaded, params, options);
  }

  async #attempt(prepared: Prepared, call: CallState, settings: CallSettings) {
    const { throttle } = this.#config;
    const signal = settings.signal;
    call.attempts++;
    let throttleWaitMs = 0;
    if (throttle) {
      // Capped like a Retry-After, and by what is left of the deadline.
      const cap = settings.policy.maxRetryAfterSeconds * 1000;
      const remaining = call.remaining();
      if (remaining <= 0) throw call.deadlineError(call.attempts - 1);
      const waitStarted = call.trace ? performance.now() : 0;
      try {
        await throttle.acquire(signal, Math.min(cap, remaining));
        if (call.trace) throttleWaitMs = performance.now() - waitStarted;
      } catch (error) {
        if (remaining < cap && error instanceof RateLimitError && error.throttled) {
          throw call.deadlineError(call.attempts - 1);
        }
        throw error;
      }
    }
    // An abort after the throttle's wait fired no listener; the one below covers the rest.
    if (signal?.aborted) throw signal.reason;
    let timeout = settings.timeout;
    if (call.deadlineAt !== null) {
      const remaining = call.remaining();
      if (remaining <= 0) throw call.deadlineError(call.attempts - 1);
      if (remaining < timeout) timeout = Math.ceil(remaining);
    }
    // The one place `Authorization` is set, unless the caller's headers named it.
    let headers = prepared.headers;
    if (prepared.keyed) {
      let authorization = this.#authorization;
      if (authorization === null) {
        // A key function that never settles is ended like a hung exchange.
        const key = await within(this.#config.readKey(), timeout, signal, () =>
          timeout < settings.timeout ? call.deadlineError(call.attempts) : new TimeoutError(timeout),
        );
        if (signal?.aborted) throw signal.reason;
        authorization = bearer(key);
      }
      headers = { ...headers, authorization };
    }
    const attemptChannel = channels?.attempt;
    if (attemptChannel?.hasSubscribers && call.trace) {
      const message = {
        call: call.trace,
        attempt: call.attempts,
        throttleWaitMs,
        status: null as number | null,
      };
      call.trace.attempts = call.attempts;
      return attemptChannel.tracePromise(async () => {
        const result = await this.#exchange(prepared, call, settings, headers, timeout);
        message.status = result.response.status;
        return result;
      }, message);
    }
    return this.#exchange(prepared, call, settings, headers, timeout);
  }

  /** One HTTP exchange: headers and body inside one timeout. */
  async #exchange(
    prepared: Prepared,
    call: CallState,
    settings: CallSettings,
    headers: Readonly<Record<string, string>>,
    timeout: number,
  ) {
    const { logger, throttle, apiKeys, maxResponseBytes } = this.#config;
    const signal = settings.signal;
    let send = this.#ky;
    if (!send) {
      send = await this.#kyInstance();
      if (signal?.aborted) throw signal.reason;
    }
    const started = performance.now();
    // One controller per attempt, linked by a listener (cheaper than AbortSignal.any).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const onAbort = signal ? () => controller.abort(signal.reason) : undefined;
    if (onAbort) signal?.addEventListener('abort', onAbort, { once: true });
    const options: KyOptions & AttemptInit = { method: prepared.method, headers, body: prepared.body };
    // With the runtime's fetch the attempt's signal rides past ky (fetchWithAttemptSignal).
    if (this.#config.fetch) options.signal = controller.signal;
    else options.shopSdkSignal = controller.signal;
    if (this.#kyHooks || settings.hooks.ky) {
      options.context = call.context(started) as unknown as Record<string, unknown>;
      if (settings.hooks.ky) options.hooks = settings.hooks.ky;
      if (this.#cloningHooks || cloning(settings.hooks)) options.shopSdkHooks = true;
    }
    let response!: Response;
    let text!: string;
    try {
      if (this.#config.fetch || options.hooks || this.#kyHooks) {
        const exchange = (async () => {
          response = await send(prepared.url, options);
          text = await readBody(response, maxResponseBytes);
        })();
        exchange.catch(() => {});
        await Promise.race([exchange, aborted(controller.signal)]);
      } else {
        response = await send(prepared.url, options);
        text = await readBody(response, maxResponseBytes);
      }
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      if (cause instanceof HookError || cause instanceof ResponseTooLargeError) throw cause;
      // Sent, perhaps: the server may have applied it.
      call.uncertain = true;
      const error = timedOut
        ? timeout < settings.timeout
          ? call.deadlineError(call.attempts)
          : new TimeoutError(timeout)
        : connectionError(cause, apiKeys, prepared.url);
      if (logger.debugEnabled) this.#logAttempt(prepared, call, error.name, null, started);
      throw error;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
    if (call.trace) {
      call.trace.rateLimitRemaining =
        response.headers.get('x-ratelimit-remaining') ?? call.trace.rateLimitRemaining;
    }
    if (throttle) {
      throttle.observe(response.headers);
      if (response.status === 429) throttle.rateLimited(response.headers);
    }
    if (logger.debugEnabled)
      this.#logAttempt(prepared, call, String(response.status), response.status, started);
    let envelope: ReturnType<typeof openEnvelope>;
    try {
      envelope = openEnvelope(response, text, apiKeys, prepared.emptyResult);
    } catch (error) {
      call.doubt(error);
      throw error;
    }
    // Checked inside the attempt: a refused answer is never retried and gets the recovery data.
    return accepted(call, prepared.checker, response, envelope, settings.validation, this.#config);
  }

  #logAttempt(prepared: Prepared, call: CallState, outcome: string, status: number | null, started: number) {
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    this.#config.logger.debug(
      `${prepared.label} -> ${outcome} (attempt ${call.attempts}, ${durationMs.toFixed(1)} ms)`,
      {
        operation: call.operation,
        method: call.method,
        path: call.path,
        status,
        attempt: call.attempts,
        durationMs,
      },
    );
  }

  async #onFailure(
    prepared: Prepared,
    call: CallState,
    settings: CallSettings,
    error: Error,
    delay: number | null,
    attempt: number,
  ): Promise<number | null> {
    const { logger, hooks } = this.#config;
    const { policy } = settings;
    scrubError(error, this.#config.apiKeys);
    const fields = { operation: call.operation, method: call.method, path: call.path, attempt };
    if (delay === null) {
      if (error instanceof RateLimitError && error.retryAfter !== null) {
        logger.warn(
          `${prepared.label}: not waiting Retry-After ${error.retryAfter} s, over maxRetryAfterSeconds (${policy.maxRetryAfterSeconds})`,
          { ...fields, status: 429, retryAfter: error.retryAfter },
        );
      }
      return null;
    }
    if (delay >= call.remaining()) throw call.deadlineError(attempt, error);
    logger.info(
      `${prepared.label} failed (${describe(error)}); retry ${attempt} of ${policy.maxRetries} in ${Math.round(delay)} ms`,
      { ...fields, status: (error as { status?: number }).status ?? null, delayMs: Math.round(delay) },
    );
    if (hooks.beforeRetry.length + settings.hooks.beforeRetry.length > 0) {
      const context = { ...call.context(call.startedAt), error, delayMs: delay };
      const run = async () => {
        await runBeforeRetry(hooks, context);
        await runBeforeRetry(settings.hooks, context);
      };
      await within(run(), call.remaining() - delay, settings.signal, () =>
        call.deadlineError(attempt, error),
      );
    }
    return delay;
  }
}

/** A failed attempt in a log line: its HTTP status, else the error's name. */
function describe(error: Error): string {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? `HTTP ${status}` : error.name;
}

/** Redacts a key quoted by a hook or custom fetch from an error. */
function scrubError(error: unknown, apiKeys: readonly string[]): void {
  if (!(error instanceof Error) || !isShopError(error) || !Object.isExtensible(error)) return;
  const message = redact(error.message, apiKeys);
  if (message !== error.message) {
    Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true });
  }
  if (typeof error.stack === 'string') {
    const stack = redact(error.stack, apiKeys);
    if (stack !== error.stack) error.stack = stack;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && !isShopError(cause) && quotesSecret(cause, apiKeys)) {
    Object.defineProperty(error, 'cause', {
      value: redactedCause(cause, apiKeys),
      writable: true,
      configurable: true,
    });
  }
}

function quotesSecret(value: unknown, apiKeys: readonly string[]): boolean {
  const text = value instanceof Error ? `${value.message}\n${value.stack ?? ''}` : String(value);
  return redact(text, apiKeys) !== text;
}
