import { monotonicNow } from '../../internal/monotonic.js';
import { sleep } from '../../internal/sleep.js';
import { RateLimitError } from '../errors/api-errors.js';
import type { SdkLogger } from '../observe/logger.js';
import { parseRateLimit, parseRetryAfter } from './rate-limit.js';
import { MemoryRateLimitStore, type RateLimitReservation, type RateLimitStore } from './rate-limit-store.js';
import { type ThrottleOption, WINDOW_MS } from './throttle-option.js';

/** The longest a 429 pauses the shop; a longer Retry-After is a misread. */
const MAX_PAUSE_MS = 86_400_000;

/** How long before its slot a waiting call confirms it with the store. */
const CONFIRM_LEAD_MS = 20;

/** After a store failure, calls pace locally this long before trying it again. */
const SHARED_RETRY_MS = 2_000;

/** A reservation and whether the shared store made it. */
type Taken = RateLimitReservation & { readonly shared: boolean };

/** Hands out start times to every attempt of one client. */
export class Throttle {
  readonly #shared: RateLimitStore | null;
  readonly #local = new MemoryRateLimitStore();
  readonly #key: string;
  readonly #auto: boolean;
  readonly #logger: SdkLogger | null;
  #intervalMs: number;
  #sharedRetryAt = 0;
  #sharedDown = false;
  /** The start of this client's last shared slot. */
  #lastSharedSlot: number | null = null;
  /** This client's averaged spacing, used while the store is down. */
  #shareIntervalMs = 0;
  /** `'auto'`: until when calls fail at once (none left, no usable reset). */
  #refuseUntil = 0;

  constructor(option: ThrottleOption, logger: SdkLogger | null = null) {
    this.#auto = option === 'auto';
    this.#intervalMs = option === 'auto' ? 0 : WINDOW_MS / option.requestsPerMinute;
    this.#shared = option === 'auto' ? null : (option.store ?? null);
    this.#key = option === 'auto' ? 'default' : (option.key ?? 'default');
    this.#logger = logger;
  }

  /** Resolves when this attempt may start; rejects past `maxWaitMs` or on abort. */
  async acquire(signal?: AbortSignal | null, maxWaitMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.#refuseUntil !== 0) {
      const left = this.#refuseUntil - monotonicNow();
      if (left > 0) throw unknownReset(this.#key, left);
      this.#refuseUntil = 0;
    }
    let held: Taken | null = null;
    let startsAt = 0;
    for (;;) {
      const taken: Taken = await this.#reserve(maxWaitMs, held);
      if (taken.slot === null) throw refusal(this.#key, taken.waitMs, maxWaitMs);
      if (held !== null && taken.shared === held.shared && taken.slot === held.slot) {
        const rest = startsAt - monotonicNow();
        if (rest > 0) await sleep(rest, signal);
        return;
      }
      if (taken.waitMs <= 0) return;
      startsAt = monotonicNow() + taken.waitMs;
      await sleep(Math.max(0, taken.waitMs - CONFIRM_LEAD_MS), signal);
      held = taken;
    }
  }

  /** In `'auto'` mode, re-paces from a response's rate-limit headers. */
  observe(headers: Headers): void {
    if (!this.#auto) return;
    const { limit, remaining, reset } = parseRateLimit(headers);
    // A reset over a day away is a misread.
    const untilReset = reset === null ? Number.NaN : reset * 1000 - Date.now();
    const usable = Math.abs(untilReset) <= MAX_PAUSE_MS;
    if (remaining !== null && remaining <= 0) {
      this.#intervalMs = paceOf(limit);
      if (!usable) {
        // None left and no reset: fail at once for a window rather than guess.
        this.#refuseUntil = monotonicNow() + WINDOW_MS;
        return;
      }
      this.#refuseUntil = 0;
      // Hold every call until the reset.
      this.#local.pauseNow(this.#key, untilReset <= 0 ? 1000 : untilReset);
      return;
    }
    this.#refuseUntil = 0;
    if (remaining !== null && usable) {
      // Spread what is left until the reset (at most a window).
      this.#intervalMs = Math.min(Math.min(Math.max(untilReset, 0), WINDOW_MS) / remaining, WINDOW_MS);
    } else if (limit) {
      this.#intervalMs = paceOf(limit);
    }
  }

  /** A 429's `Retry-After` pauses every call for the key, in every process. */
  rateLimited(headers: Headers): void {
    const seconds = parseRetryAfter(headers);
    if (seconds === null || seconds <= 0) return;
    const ms = Math.min(seconds * 1000, MAX_PAUSE_MS);
    this.#local.pauseNow(this.#key, ms);
    if (this.#shared && this.#sharedUsable()) {
      this.#shared.pause(this.#key, ms).then(
        () => this.#sharedAnswered(),
        (error: unknown) => this.#sharedFailed(error),
      );
    }
  }

  async #reserve(maxWaitMs: number, held: Taken | null): Promise<Taken> {
    if (this.#shared && this.#sharedUsable()) {
      try {
        const heldSlot = held?.shared ? held.slot : null;
        const taken = await this.#shared.reserve(this.#key, this.#intervalMs, maxWaitMs, heldSlot);
        this.#sharedAnswered();
        if (taken.slot !== null && taken.slot !== heldSlot) this.#noteShare(taken.slot);
        return { ...taken, shared: true };
      } catch (error) {
        this.#sharedFailed(error);
      }
    }
    const heldSlot = held && !held.shared ? held.slot : null;
    // Alone, keep the share it had, or every process would send at the whole rate.
    const interval = this.#shared ? Math.max(this.#intervalMs, this.#shareIntervalMs) : this.#intervalMs;
    return { ...this.#local.reserveNow(this.#key, interval, maxWaitMs, heldSlot), shared: false };
  }

  /** Averages the gap between this client's shared slots (capped at 16 intervals). */
  #noteShare(slot: number): void {
    const last = this.#lastSharedSlot;
    this.#lastSharedSlot = slot;
    if (last === null || slot <= last) return;
    const gap = Math.min(slot - last, 16 * this.#intervalMs);
    this.#shareIntervalMs = this.#shareIntervalMs === 0 ? gap : 0.8 * this.#shareIntervalMs + 0.2 * gap;
  }

  #sharedUsable(): boolean {
    return !this.#sharedDown || monotonicNow() >= this.#sharedRetryAt;
  }

  #sharedAnswered(): void {
    if (!this.#sharedDown) return;
    this.#sharedDown = false;
    this.#logger?.info(`throttle: the rate-limit store answers again; pacing "${this.#key}" with it`);
  }

  #sharedFailed(error: unknown): void {
    this.#sharedRetryAt = monotonicNow() + SHARED_RETRY_MS;
    if (this.#sharedDown) return;
    this.#sharedDown = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.#logger?.warn(
      `throttle: the rate-limit store failed (${reason}); pacing "${this.#key}" in this process alone until it answers`,
    );
  }
}

/** The slot lies further off than the caller waits. */
function refusal(key: string, waitMs: number, maxWaitMs: number): RateLimitError {
  const seconds = Math.ceil(waitMs / 1000);
  return new RateLimitError({
    status: 429,
    code: 'RATE_LIMITED',
    message: `Throttled: the next request slot for "${key}" is ${seconds} s away, over maxRetryAfterSeconds (${maxWaitMs / 1000}); nothing was sent`,
    details: {},
    headers: new Headers(),
    retryAfter: seconds,
  });
}

/** None left and no reset known. */
function unknownReset(key: string, leftMs: number): RateLimitError {
  const seconds = Math.ceil(leftMs / 1000);
  return new RateLimitError({
    status: 429,
    code: 'RATE_LIMITED',
    message: `Throttled: the last answer for "${key}" left no requests (X-RateLimit-Remaining: 0) and gave no usable X-RateLimit-Reset (missing, unreadable, or more than a day from now); calls fail for one window, ${seconds} s more; nothing was sent`,
    details: {},
    headers: new Headers(),
    retryAfter: seconds,
  });
}

/** The spacing of `limit` requests a minute, at most a window. */
function paceOf(limit: number | null): number {
  return limit && limit > 0 ? Math.min(WINDOW_MS / limit, WINDOW_MS) : 0;
}
