import { MAX_TIMER_MS } from '../../internal/limits.js';
import type { RateLimitStore } from './rate-limit-store.js';

// Checked when a client is built; the Throttle itself (throttle.ts) is imported only when one is given.

/** A fixed pace, for one client or, through a shared `store`, every process of a shop. */
export interface ThrottlePace {
  /** Request starts a minute for `key` across the store: the shop's whole limit if every process shares it. */
  readonly requestsPerMinute: number;
  /** A `MemoryRateLimitStore` or a `RedisRateLimitStore` (`shop-mgmt/redis`). @default one of this client's own */
  readonly store?: RateLimitStore;
  /** Whose limit this is: the shop's id, so shops sharing a store keep apart. @default 'default' */
  readonly key?: string;
}

/**
 * Client-side pacing, opt-in: `{ requestsPerMinute }` spaces starts evenly; `'auto'` spreads what the
 * `X-RateLimit-*` headers leave over the window and waits for the reset when none are left.
 */
export type ThrottleOption = ThrottlePace | 'auto';

/** A fixed-window minute, as the API counts it. */
export const WINDOW_MS = 60_000;

/** The slowest pace a timer can keep: one start per 2^31 - 1 ms. */
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
