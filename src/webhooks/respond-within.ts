// The service retries a delivery without a 2xx in 10 s: past `respondWithin` the handler answers 202.

/** Default ms before answering 202 (of the service's 10 s). */
export const DEFAULT_RESPOND_WITHIN_MS = 8000;

/** Keeps a serverless invocation alive until `promise` settles. */
export type WaitUntil = (promise: Promise<unknown>) => void;

/** When one adapter call began, and the platform's waitUntil if any. */
export interface CallScope {
  readonly startedAt: number;
  readonly waitUntil?: WaitUntil | undefined;
}

/** The work went past its time; it goes on. */
export const LATE: unique symbol = Symbol('late');

/** A failure kept as a value, so a late one is never an unhandled rejection. */
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
  // Cleared when either side wins, so no timer holds the process open.
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The first extra argument with a `waitUntil` method, called as a method. */
export function waitUntilAmong(platform: readonly unknown[]): WaitUntil | undefined {
  for (const candidate of platform) {
    try {
      const carrier = candidate as { waitUntil?: unknown } | null;
      if (typeof carrier === 'object' && carrier !== null && typeof carrier.waitUntil === 'function') {
        const method = carrier.waitUntil as WaitUntil;
        return (promise) => method.call(carrier, promise);
      }
    } catch {
      // A getter that throws: not a waitUntil.
    }
  }
  return undefined;
}

/** A store call past its bound; the delivery is answered 503. */
export class StoreTimeoutError extends Error {
  override readonly name = 'StoreTimeoutError';
  constructor(what: string, ms: number) {
    super(`The ${what} call took longer than ${ms} ms (storeTimeoutMs); the delivery was answered 503.`);
  }
}

/** One store call bounded by `ms`; one that succeeds too late is handed to `late`. */
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
