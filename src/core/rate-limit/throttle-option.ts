import { MAX_TIMER_MS } from '../../internal/limits.js';
import type { RateLimitStore } from './rate-limit-store.js';

/** A fixed pace, for one client or, with a shared `store`, a whole shop. */
export interface ThrottlePace {
  /** Starts a minute for `key` across the store. */
  readonly requestsPerMinute: number;
  /** Share it to pace every process of a shop. @default the client's own */
  readonly store?: RateLimitStore;
  /** The shop's id, so shops sharing a store keep apart. @default 'default' */
  readonly key?: string;
}

/** Client-side pacing: even spacing by `requestsPerMinute`, or `'auto'` from the `X-RateLimit-*` headers. */
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
