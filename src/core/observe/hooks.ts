import type { AfterResponseHook, BeforeRequestHook, Hooks as KyHooks } from 'ky';
import type { HttpMethod } from '../api/operation.js';
import { HookError } from '../errors/transport-errors.js';
import { parseRateLimit, type RateLimitInfo } from '../rate-limit/rate-limit.js';

// The public middleware: ky's own request/response hooks (so a ky user's hooks work as they are) and the
// SDK's retry/error hooks, each told which call and attempt it sees through one context object.

/**
 * What every hook is told about the call. In ky's hooks it is `options.context`; the SDK's own hooks
 * receive it as an argument.
 */
export interface ShopRequestContext {
  /** The operation id, e.g. `range.reservations.create`. */
  readonly operation: string;
  /** The HTTP method. */
  readonly method: HttpMethod;
  /**
   * The path template, e.g. `/v1/range/reservations/{id}`: never the filled path, so a metric labelled
   * with it keeps a bounded cardinality.
   */
  readonly path: string;
  /** 1 for the first attempt, 2 for the first retry, ... */
  readonly attempt: number;
  /** The POST's Idempotency-Key (the caller's or the generated one), null for other methods. */
  readonly idempotencyKey: string | null;
  /** `performance.now()` when this attempt started. */
  readonly startedAt: number;
}

/** What an `afterResponse` hook is told on top of {@link ShopRequestContext}. */
export interface ShopResponseContext extends ShopRequestContext {
  /** The response's HTTP status. */
  readonly status: number;
  /** The response's `X-RateLimit-*` figures. */
  readonly rateLimit: RateLimitInfo;
  /** Milliseconds from the attempt's start to its response headers. */
  readonly durationMs: number;
}

/** What a `beforeRetry` hook is told: the failed attempt, why, and the wait before the next one. */
export interface ShopRetryContext extends ShopRequestContext {
  /** Why the attempt failed (a ShopError subclass). */
  readonly error: Error;
  /** Milliseconds the SDK waits before the next attempt. */
  readonly delayMs: number;
}

/**
 * The options ky passes a `beforeRequest` or `afterResponse` hook, as the SDK types them: `context` is the
 * SDK's, the rest is ky's normalized options (not typed here, so the SDK's CommonJS types need nothing
 * from ky, whose types are ESM-only).
 */
export interface ShopHookOptions<Context extends ShopRequestContext = ShopRequestContext> {
  /** What the SDK tells the hook about the call. */
  readonly context: Context;
  /** The request method. */
  readonly method: string;
  /** The request headers. */
  readonly headers: Headers;
  /** ky's other options. */
  readonly [option: string]: unknown;
}

/** What ky tells a hook about retries: 0 for the first attempt. */
export interface ShopHookState {
  readonly retryCount: number;
}

/** A `beforeRequest` hook: may change `request.headers`, or return a Request or Response to use instead. */
export type ShopBeforeRequestHook = (
  request: Request,
  options: ShopHookOptions<ShopRequestContext>,
  state: ShopHookState,
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only sets a header returns void.
) => Request | Response | void | Promise<Request | Response | void>;

/** An `afterResponse` hook: may read the response (a clone) or return another Response to use instead. */
export type ShopAfterResponseHook = (
  request: Request,
  options: ShopHookOptions<ShopResponseContext>,
  response: Response,
  state: ShopHookState,
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only records a metric returns void.
) => Response | void | Promise<Response | void>;

/**
 * Hooks of a client (`new ShopClient({ hooks })`, `shop.withOptions({ hooks })`) or of one call. A client's
 * run first, then the call's. A hook that throws fails the call with a {@link HookError}, never retried.
 * @example
 * const shop = new ShopClient({
 *   hooks: { beforeRequest: [(request, options) => request.headers.set('x-request-id', options.context.operation + ':' + crypto.randomUUID())] },
 * });
 */
export interface ShopHooks {
  /**
   * ky's `beforeRequest`: `(request, options, state)`, run before every attempt; may change
   * `request.headers`. `options.context` is a {@link ShopRequestContext}.
   */
  beforeRequest?: ShopBeforeRequestHook[];
  /**
   * ky's `afterResponse`: `(request, options, response, state)`, run on every response, error statuses
   * included; `options.context` is a {@link ShopResponseContext}. Read the response given, a clone: the SDK
   * reads the body once from its own.
   */
  afterResponse?: ShopAfterResponseHook[];
  /** Before the SDK waits for a retry. */
  beforeRetry?: ((context: ShopRetryContext) => unknown)[];
  /**
   * When the call fails for good, before its promise rejects: may return another Error to reject with
   * instead (e.g. your own class wrapping it).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only reports (`(error) => log(error)`) returns void.
  beforeError?: ((error: Error, context: ShopRequestContext) => Error | void | Promise<Error | void>)[];
}

/** Hooks checked and wrapped once: ky's part ready to pass to ky, the SDK's part as given. */
export interface PreparedHooks {
  readonly ky: KyHooks | undefined;
  readonly beforeRetry: NonNullable<ShopHooks['beforeRetry']>;
  readonly beforeError: NonNullable<ShopHooks['beforeError']>;
}

/** No hooks at all; shared, so a client or call without hooks allocates nothing for them. */
export const NO_HOOKS: PreparedHooks = Object.freeze({ ky: undefined, beforeRetry: [], beforeError: [] });

function hookList<T>(value: T[] | undefined, name: string): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((hook) => typeof hook !== 'function')) {
    throw new HookError(`hooks.${name} must be an array of functions`);
  }
  return value;
}

/** A thrown hook as a typed error (the caller's own ShopError passes as it is). */
function hookFailure(name: string, error: unknown): Error {
  if (error instanceof HookError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HookError(`A ${name} hook threw: ${message}`, { cause: error });
}

function wrapBeforeRequest(hook: ShopBeforeRequestHook): BeforeRequestHook {
  return async (request, options, state) => {
    try {
      return await hook(request, options as unknown as ShopHookOptions<ShopRequestContext>, state);
    } catch (error) {
      throw hookFailure('beforeRequest', error);
    }
  };
}

// The key deferred-clone.ts's stand-ins answer to (`Symbol.for`, so this module need not import that one,
// which is loaded only by a client with hooks).
const SETTLE = Symbol.for('shop-mgmt.settleClone');

/**
 * Tells the stand-in an afterResponse hook was given (deferred-clone.ts) that its hook has settled, with what
 * it returned: ky's cancel of an unused clone then finds no body, and a clone the hook returned is made real
 * first. Nothing for a real Response.
 */
function settleClone(response: Response, returned: unknown): void {
  (response as unknown as { [SETTLE]?: (returned: unknown) => void })[SETTLE]?.(returned);
}

function wrapAfterResponse(hook: ShopAfterResponseHook): AfterResponseHook {
  return async (request, options, response, state) => {
    const context = options.context as Record<string, unknown>;
    // ky gives each request its own copy of the context: adding the response's figures changes nothing else.
    if (context.status === undefined) {
      context.status = response.status;
      context.rateLimit = parseRateLimit(response.headers);
      context.durationMs = performance.now() - (context.startedAt as number);
    }
    let returned: Response | undefined;
    try {
      returned =
        (await hook(request, options as unknown as ShopHookOptions<ShopResponseContext>, response, state)) ??
        undefined;
    } catch (error) {
      throw hookFailure('afterResponse', error);
    } finally {
      settleClone(response, returned);
    }
    return returned;
  };
}

/** Checks `hooks` and wraps ky's part so a throw becomes a {@link HookError}. */
export function prepareHooks(hooks: ShopHooks | undefined): PreparedHooks {
  if (hooks === undefined) return NO_HOOKS;
  if (typeof hooks !== 'object' || hooks === null) throw new HookError('hooks must be an object');
  const beforeRequest = hookList(hooks.beforeRequest, 'beforeRequest').map(wrapBeforeRequest);
  const afterResponse = hookList(hooks.afterResponse, 'afterResponse').map(wrapAfterResponse);
  const beforeRetry = hookList(hooks.beforeRetry, 'beforeRetry');
  const beforeError = hookList(hooks.beforeError, 'beforeError');
  const ky = beforeRequest.length + afterResponse.length > 0 ? { beforeRequest, afterResponse } : undefined;
  if (!ky && beforeRetry.length + beforeError.length === 0) return NO_HOOKS;
  return { ky, beforeRetry, beforeError };
}

/** Runs the `beforeRetry` hooks in order; a throw becomes a {@link HookError}. */
export async function runBeforeRetry(hooks: PreparedHooks, context: ShopRetryContext): Promise<void> {
  for (const hook of hooks.beforeRetry) {
    try {
      await hook(context);
    } catch (error) {
      throw hookFailure('beforeRetry', error);
    }
  }
}

/** Runs the `beforeError` hooks in order, each given the previous one's error; a throw becomes a HookError. */
export async function runBeforeError(
  hooks: PreparedHooks,
  error: Error,
  context: ShopRequestContext,
): Promise<Error> {
  let current = error;
  for (const hook of hooks.beforeError) {
    try {
      const replaced = await hook(current, context);
      if (replaced instanceof Error) current = replaced;
    } catch (thrown) {
      return hookFailure('beforeError', thrown);
    }
  }
  return current;
}
