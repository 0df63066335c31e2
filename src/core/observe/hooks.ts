import type { AfterResponseHook, BeforeRequestHook, Hooks as KyHooks } from 'ky';
import type { HttpMethod } from '../api/operation.js';
import { HookError } from '../errors/transport-errors.js';
import { parseRateLimit, type RateLimitInfo } from '../rate-limit/rate-limit.js';

/** What every hook is told about the call. */
export interface ShopRequestContext {
  readonly operation: string;
  readonly method: HttpMethod;
  /** The path template, so metric labels stay bounded. */
  readonly path: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The POST's Idempotency-Key. */
  readonly idempotencyKey: string | null;
  /** `performance.now()` when this attempt started. */
  readonly startedAt: number;
}

/** What an `afterResponse` hook is told on top of {@link ShopRequestContext}. */
export interface ShopResponseContext extends ShopRequestContext {
  readonly status: number;
  /** `X-RateLimit-*` figures. */
  readonly rateLimit: RateLimitInfo;
  /** ms to the response headers. */
  readonly durationMs: number;
}

/** What a `beforeRetry` hook is told. */
export interface ShopRetryContext extends ShopRequestContext {
  /** Why the attempt failed. */
  readonly error: Error;
  /** ms before the next attempt. */
  readonly delayMs: number;
}

/** The options ky passes a hook; ky's part untyped so the CommonJS types need nothing from ky. */
export interface ShopHookOptions<Context extends ShopRequestContext = ShopRequestContext> {
  readonly context: Context;
  readonly method: string;
  readonly headers: Headers;
  readonly [option: string]: unknown;
}

/** ky's retry state: 0 for the first attempt. */
export interface ShopHookState {
  readonly retryCount: number;
}

/** May change `request.headers`, or return a Request or Response to use instead. */
export type ShopBeforeRequestHook = (
  request: Request,
  options: ShopHookOptions<ShopRequestContext>,
  state: ShopHookState,
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing.
) => Request | Response | void | Promise<Request | Response | void>;

/** May read the response (a clone) or return another Response to use instead. */
export type ShopAfterResponseHook = (
  request: Request,
  options: ShopHookOptions<ShopResponseContext>,
  response: Response,
  state: ShopHookState,
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing.
) => Response | void | Promise<Response | void>;

/** Hooks of a client or a call (a client's first); a throw fails the call with a {@link HookError}. */
export interface ShopHooks {
  /** Run before every attempt; may change `request.headers`. */
  beforeRequest?: ShopBeforeRequestHook[];
  /** Run on every response (a clone), errors included. */
  afterResponse?: ShopAfterResponseHook[];
  /** Before the SDK waits for a retry. */
  beforeRetry?: ((context: ShopRetryContext) => unknown)[];
  /** When the call fails for good; may return another Error to reject with. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing.
  beforeError?: ((error: Error, context: ShopRequestContext) => Error | void | Promise<Error | void>)[];
}

/** Hooks checked and wrapped once. */
export interface PreparedHooks {
  readonly ky: KyHooks | undefined;
  readonly beforeRetry: NonNullable<ShopHooks['beforeRetry']>;
  readonly beforeError: NonNullable<ShopHooks['beforeError']>;
}

/** No hooks, shared. */
export const NO_HOOKS: PreparedHooks = Object.freeze({ ky: undefined, beforeRetry: [], beforeError: [] });

function hookList<T>(value: T[] | undefined, name: string): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((hook) => typeof hook !== 'function')) {
    throw new HookError(`hooks.${name} must be an array of functions`);
  }
  return value;
}

/** A hook's throw as a HookError. */
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

// The key deferred-clone.ts's stand-ins answer to (Symbol.for, so that module stays lazy).
const SETTLE = Symbol.for('shop-mgmt.settleClone');

/** Tells a deferred-clone stand-in its hook settled. */
function settleClone(response: Response, returned: unknown): void {
  (response as unknown as { [SETTLE]?: (returned: unknown) => void })[SETTLE]?.(returned);
}

function wrapAfterResponse(hook: ShopAfterResponseHook): AfterResponseHook {
  return async (request, options, response, state) => {
    const context = options.context as Record<string, unknown>;
    // ky copies the context per request, so adding to it is safe.
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

/** Runs the `beforeError` hooks in order, each given the previous one's error. */
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
