// The service counts a delivery failed when no 2xx comes within 10 seconds (reference section 6), and retries
// it while the first handler may still be working. Past `respondWithin` the handler answers 202 and lets the
// work finish: on the platform's waitUntil where there is one, in the running process otherwise.

/** Default time a handler waits on the event handlers before answering 202, in ms (of the service's 10 s). */
export const DEFAULT_RESPOND_WITHIN_MS = 8000;

/**
 * Keeps a serverless invocation alive until `promise` settles after the response is sent: Workers'
 * `ctx.waitUntil`, Vercel's `waitUntil` from `@vercel/functions`, Netlify's `context.waitUntil`.
 */
export type WaitUntil = (promise: Promise<unknown>) => void;

/** How one call to an adapter bounds the work: when it began, and the platform's waitUntil if any. */
export interface CallScope {
  /** `Date.now()` when the adapter was called. */
  readonly startedAt: number;
  readonly waitUntil?: WaitUntil | undefined;
}

/** The work went past its time; it goes on. */
export const LATE: unique symbol = Symbol('late');

/** A failed piece of work, kept as a value so that a late failure is never an unhandled rejection. */
export interface Failure {
  readonly error: unknown;
}

/** Runs `work` to a value: undefined when it succeeded, its {@link Failure} otherwise. Never rejects. */
export function failureOf(work: () => Promise<unknown>): Promise<Failure | undefined> {
  return work().then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
}

/** What `promise` resolves with, or {@link LATE} once `ms` have passed first (`false`: no bound). */
export function within<T>(promise: Promise<T>, ms: number | false): Promise<T | typeof LATE> {
  if (ms === false) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms), LATE);
  });
  // Cleared as soon as either side wins, so a fast handler leaves no timer holding the process open.
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The waitUntil among a web handler's extra arguments: the first with a `waitUntil` method (Workers'
 * `fetch(request, env, ctx)`, Netlify's `(request, context)`, or `{ waitUntil }` passed by hand). Called as
 * a method: Workers refuses a detached `ctx.waitUntil`.
 */
export function waitUntilAmong(platform: readonly unknown[]): WaitUntil | undefined {
  for (const candidate of platform) {
    try {
      const carrier = candidate as { waitUntil?: unknown } | null;
      if (typeof carrier === 'object' && carrier !== null && typeof carrier.waitUntil === 'function') {
        const method = carrier.waitUntil as WaitUntil;
        return (promise) => method.call(carrier, promise);
      }
    } catch {
      // A getter that throws (a framework's context outside its runtime): not a waitUntil.
    }
  }
  return undefined;
}

/** A store call that took longer than its bound; the delivery is answered 503 and the sender retries. */
export class StoreTimeoutError extends Error {
  override readonly name = 'StoreTimeoutError';
  constructor(what: string, ms: number) {
    super(`The ${what} call took longer than ${ms} ms (storeTimeoutMs); the delivery was answered 503.`);
  }
}

/**
 * Runs one store call with a time bound: resolves with its value, rejects with its error or, after `ms`,
 * with a {@link StoreTimeoutError}. A call that succeeds after the bound is handed to `late` (a claim taken
 * late is released there, so the sender's retry is not refused).
 */
export function bounded<T>(
  what: string,
  call: () => T | Promise<T>,
  ms: number,
  late?: (value: T) => unknown,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const work = (async () => call())();
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new StoreTimeoutError(what, ms));
    }, ms);
  });
  work.then(
    (value) => {
      if (timedOut && late) {
        try {
          Promise.resolve(late(value)).catch(() => undefined);
        } catch {
          // Cleaning up after a late call is best effort.
        }
      }
    },
    () => undefined,
  );
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}
