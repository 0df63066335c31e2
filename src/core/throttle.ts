import { MAX_TIMER_MS } from '../internal/limits.js';
import { sleep } from '../internal/sleep.js';
import { parseRateLimit } from './rate-limit.js';

/**
 * Client-side pacing, opt-in. `{ requestsPerMinute }` spaces request starts evenly (60 on the Established
 * plan means one a second). `'auto'` paces from the `X-RateLimit-*` headers: it spreads the requests left in
 * the window over the time left, and waits for the reset when none are left, so it also yields to the
 * shop's other keys that share the limit.
 */
export type ThrottleOption = { readonly requestsPerMinute: number } | 'auto';

const WINDOW_MS = 60_000;

/** The slowest fixed pace a timer can keep: one start per 2^31 - 1 ms (about 25 days). */
export const MIN_REQUESTS_PER_MINUTE = WINDOW_MS / MAX_TIMER_MS;

/** True for a `requestsPerMinute` the throttle can keep. */
export function isPacing(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= MIN_REQUESTS_PER_MINUTE;
}

/** Hands out start times to every attempt of one client, concurrent ones included. */
export class Throttle {
  #nextStart = 0;
  #intervalMs: number;
  readonly #auto: boolean;

  constructor(option: ThrottleOption) {
    this.#auto = option === 'auto';
    this.#intervalMs = option === 'auto' ? 0 : WINDOW_MS / option.requestsPerMinute;
  }

  /** Resolves when this attempt may start; the slot is taken at once, so concurrent callers queue up. */
  acquire(signal?: AbortSignal | null): Promise<void> | undefined {
    const now = Date.now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + this.#intervalMs;
    return start > now ? sleep(start - now, signal) : undefined;
  }

  /** In `'auto'` mode, re-paces from a response's rate-limit headers. */
  observe(headers: Headers): void {
    if (!this.#auto) return;
    const { limit, remaining, reset } = parseRateLimit(headers);
    const now = Date.now();
    if (remaining !== null && reset !== null) {
      const msLeft = Math.min(Math.max(reset * 1000 - now, 0), WINDOW_MS);
      if (remaining <= 0) {
        // A reset already past by our clock means the clocks disagree: wait a second rather than not at all.
        this.#nextStart = Math.max(this.#nextStart, now + (msLeft || 1000));
        this.#intervalMs = paceOf(limit);
      } else {
        this.#intervalMs = msLeft / remaining;
      }
    } else if (limit) {
      this.#intervalMs = paceOf(limit);
    }
  }
}

/**
 * The spacing for `limit` requests a minute. At most the window itself: no header can make the throttle
 * wait longer than a minute between starts (a fractional limit would ask for a wait a timer cannot hold).
 */
function paceOf(limit: number | null): number {
  return limit && limit > 0 ? Math.min(WINDOW_MS / limit, WINDOW_MS) : 0;
}
