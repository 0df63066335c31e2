import type pRetryFunction from 'p-retry';
import { defaultFunction, loadOnce } from '../../internal/load-once.js';
import { sleep } from '../../internal/sleep.js';
import { ConflictError, InternalServerError, RateLimitError } from '../errors/api-errors.js';
import { ConnectionError, TimeoutError } from '../errors/transport-errors.js';
import { parseRetryAfter } from '../rate-limit/rate-limit.js';

/** The bounds of one call's retries. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** A 429 asking for a longer wait rejects at once. */
  readonly maxRetryAfterSeconds: number;
  /** First back-off before jitter; doubles per retry. */
  readonly backoffBaseMs: number;
  /** No back-off wait exceeds this. */
  readonly backoffCapMs: number;
}

const RETRYABLE_SERVER_STATUSES = new Set([500, 502, 503, 504]);

/** Exponential back-off with full jitter: uniform in [0, min(cap, base * 2^(retry - 1))). */
export function backoffDelay(retryNumber: number, policy: RetryPolicy): number {
  return Math.random() * Math.min(policy.backoffCapMs, policy.backoffBaseMs * 2 ** (retryNumber - 1));
}

/**
 * The wait before retry `retryNumber` after `error`, or null when `error` is final. The same for every
 * method: POSTs carry an Idempotency-Key and every PATCH sets absolute values, so a repeat does no harm.
 */
export function retryDelay(error: unknown, retryNumber: number, policy: RetryPolicy): number | null {
  if (error instanceof RateLimitError) {
    // The throttle refused before sending: a retry would be refused alike.
    if (error.throttled) return null;
    if (error.retryAfter === null) return backoffDelay(retryNumber, policy);
    return error.retryAfter <= policy.maxRetryAfterSeconds ? error.retryAfter * 1000 : null;
  }
  if (error instanceof InternalServerError) {
    if (!RETRYABLE_SERVER_STATUSES.has(error.status)) return null;
    // A 503's Retry-After is honoured up to the cap; past it or missing, back off.
    const retryAfter = error.status === 503 ? parseRetryAfter(error.headers) : null;
    return retryAfter !== null && retryAfter <= policy.maxRetryAfterSeconds
      ? retryAfter * 1000
      : backoffDelay(retryNumber, policy);
  }
  if (error instanceof ConflictError) {
    return error.code === 'IDEMPOTENCY_IN_PROGRESS' ? backoffDelay(retryNumber, policy) : null;
  }
  if (error instanceof ConnectionError) {
    // Past the deadline no time is left; a per-attempt timeout is retried.
    if (error instanceof TimeoutError && error.deadline !== null) return null;
    return backoffDelay(retryNumber, policy);
  }
  return null;
}

const noop = () => {};
const consumeRetry = () => true;

/** Told of each failed attempt and its planned wait; returns the wait to take (null: stop), or throws. */
export type FailedAttemptListener = (
  error: Error,
  delayMs: number | null,
  attemptNumber: number,
) => number | null | Promise<number | null>;

/**
 * Runs `attempt` until it succeeds or fails for good. p-retry counts attempts and honours `signal`; the wait
 * is ours: it depends on the error (Retry-After, else full jitter) and the deadline.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  onFailedAttempt: FailedAttemptListener,
): Promise<T> {
  if (policy.maxRetries === 0 && !signal) return attempt(1);
  // The first attempt runs before p-retry loads (most calls never need it); the loop starts from its error.
  let first: unknown;
  try {
    signal?.throwIfAborted();
    const result = await attempt(1);
    signal?.throwIfAborted();
    return result;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (policy.maxRetries === 0) throw error;
    first = error;
  }
  let pRetry: typeof pRetryFunction;
  try {
    pRetry = await loadPRetry();
  } catch {
    // p-retry failed to load: no retry; the attempt's own error says more.
    throw first;
  }
  try {
    // Every option spelled out: p-retry fills missing ones with its defaults.
    return await pRetry(
      (attemptNumber) => (attemptNumber === 1 ? Promise.reject(first) : attempt(attemptNumber)),
      {
        retries: policy.maxRetries,
        factor: 1,
        minTimeout: 0,
        maxTimeout: Number.POSITIVE_INFINITY,
        maxRetryTime: Number.POSITIVE_INFINITY,
        randomize: false,
        unref: false,
        signal,
        onFailedAttempt: noop,
        shouldConsumeRetry: consumeRetry,
        shouldRetry: async ({ error, attemptNumber }) => {
          const delay = await onFailedAttempt(error, retryDelay(error, attemptNumber, policy), attemptNumber);
          if (delay === null) return false;
          await sleep(delay, signal);
          return true;
        },
      },
    );
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}

/** p-retry, imported on the first failed attempt; a failed load is retried later. */
const loadPRetry = loadOnce(() =>
  import('p-retry').then((module) => defaultFunction<typeof pRetryFunction>(module)),
);
