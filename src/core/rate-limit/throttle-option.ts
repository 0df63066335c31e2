import { MAX_TIMER_MS } from '../../internal/limits.js';
import type { RateLimitStore } from './rate-limit-store.js';

// The `throttle` option and its checks, apart from the Throttle itself: the client checks the option when it
// is built, and imports the Throttle (throttle.ts, with its stores) only when a client is given one.

/** `throttle` as a fixed pace, for one client or, through a shared `store`, for every process of a shop. */
export interface ThrottlePace {
  /**
   * Request starts a minute for `key`, across everything that shares the store: the shop's whole limit
   * (60 on the Established plan) when every process of the shop uses one store, else this process's share.
   */
  readonly requestsPerMinute: number;
  /**
   * Where the schedule lives: a `MemoryRateLimitStore` (one process; pass one instance to several clients
   * to pace them together) or a `RedisRateLimitStore` from `shop-mgmt/redis` (every process on that Redis).
   * @default a MemoryRateLimitStore of this client's own
   */
  readonly store?: RateLimitStore;
  /**
   * Whose limit this is: name the shop (its id), so clients of different shops sharing a store keep apart.
   * @default 'default'
   */
  readonly key?: string;
}

/**
 * Client-side pacing, opt-in. `{ requestsPerMinute }` spaces request starts evenly (60 on the Established
 * plan means one a second), with `store` and `key` across processes. `'auto'` paces from the
 * `X-RateLimit-*` headers: it spreads the requests left in the window over the time left, and waits for the
 * reset when none are left, so it also yields to the shop's other keys that share the limit.
 */
export type ThrottleOption = ThrottlePace | 'auto';

/** A fixed-window minute, as the API counts it. */
export const WINDOW_MS = 60_000;

/** The slowest fixed pace a timer can keep: one start per 2^31 - 1 ms (about 25 days). */
export const MIN_REQUESTS_PER_MINUTE = WINDOW_MS / MAX_TIMER_MS;

/** True for a `requestsPerMinute` the throttle can keep. */
export function isPacing(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= MIN_REQUESTS_PER_MINUTE;
}

/** True for something with a store's two methods. */
export function isRateLimitStore(value: unknown): value is RateLimitStore {
  const store = value as Partial<RateLimitStore> | null | undefined;
  return typeof store?.reserve === 'function' && typeof store.pause === 'function';
}
