import { monotonicNow } from '../../internal/monotonic.js';

// Where a throttle keeps a shop's pace. The API counts requests per shop across every key and process
// (reference section 8), so processes that share one shop's limit must share one schedule: a store holds
// it, in memory for one process or in Redis (rate-limit-store-redis.ts) for many.

/**
 * The answer to {@link RateLimitStore.reserve}: the milliseconds to wait, and the slot taken for them, or
 * `slot: null` when the wait would exceed `maxWaitMs` (nothing is then taken).
 */
export interface RateLimitReservation {
  /** Milliseconds from now until the slot; 0 to start at once. */
  readonly waitMs: number;
  /** The slot's start on the store's own clock, to hand back to `reserve` after waiting; null when refused. */
  readonly slot: number | null;
}

/**
 * A schedule of request starts per key (a shop), shared by every throttle given the store. Implementations
 * must be atomic per key: two reservations never get the same slot. The SDK's are
 * {@link MemoryRateLimitStore} and `RedisRateLimitStore` (`shop-mgmt/redis`).
 */
export interface RateLimitStore {
  /**
   * Takes the next start for `key`, `intervalMs` after the one before and not inside a pause (generic cell
   * rate: a start may come no sooner than `intervalMs` after the previous one). With `heldSlot` (a slot
   * this caller already waited for) the slot is confirmed as it stands, `waitMs: 0`, unless a pause set
   * since covers it or the caller comes back more than `intervalMs` after it: then a new slot is taken.
   * (A start that late would land on top of the slots after it, which others are using on time; the
   * service counts fixed windows, so such bunching is what turns into 429s.)
   */
  reserve(
    key: string,
    intervalMs: number,
    maxWaitMs: number,
    heldSlot?: number | null,
  ): Promise<RateLimitReservation>;
  /** Holds every start for `key` for `ms` from now (a 429's Retry-After); a shorter pause leaves a longer one. */
  pause(key: string, ms: number): Promise<void>;
}

interface Schedule {
  /** The earliest start the next reservation may take (the theoretical arrival time). */
  nextStart: number;
  pausedUntil: number;
}

/**
 * The reservation rule, one for every store (the Redis script spells the same steps in Lua): the slot is
 * the later of now, the next free start and the end of a pause.
 */
export function reserveIn(
  schedule: Schedule,
  now: number,
  intervalMs: number,
  maxWaitMs: number,
  heldSlot: number | null | undefined,
): RateLimitReservation {
  if (
    heldSlot !== null &&
    heldSlot !== undefined &&
    schedule.pausedUntil <= heldSlot &&
    now - heldSlot <= intervalMs
  ) {
    return { waitMs: 0, slot: heldSlot };
  }
  const start = Math.max(now, schedule.nextStart, schedule.pausedUntil);
  const waitMs = start - now;
  if (waitMs > maxWaitMs) return { waitMs, slot: null };
  schedule.nextStart = start + intervalMs;
  return { waitMs, slot: start };
}

/**
 * A {@link RateLimitStore} in this process's memory: the default, which every throttle without a `store`
 * gets its own of. Share one instance between clients of the same shop in one process to pace them
 * together; across processes use `RedisRateLimitStore`.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #schedules = new Map<string, Schedule>();

  /** Takes the next start for `key`; see {@link RateLimitStore.reserve}. */
  reserve(
    key: string,
    intervalMs: number,
    maxWaitMs: number,
    heldSlot?: number | null,
  ): Promise<RateLimitReservation> {
    return Promise.resolve(this.reserveNow(key, intervalMs, maxWaitMs, heldSlot));
  }

  /** Holds every start for `key` for `ms` from now. */
  pause(key: string, ms: number): Promise<void> {
    this.pauseNow(key, ms);
    return Promise.resolve();
  }

  /** @internal {@link reserve} without the promise, for the throttle's own fallback. */
  reserveNow(
    key: string,
    intervalMs: number,
    maxWaitMs: number,
    heldSlot?: number | null,
  ): RateLimitReservation {
    const now = monotonicNow();
    const schedule = this.#schedule(key, now);
    return reserveIn(schedule, now, intervalMs, maxWaitMs, heldSlot);
  }

  /** @internal {@link pause} without the promise. */
  pauseNow(key: string, ms: number): void {
    const now = monotonicNow();
    const schedule = this.#schedule(key, now);
    schedule.pausedUntil = Math.max(schedule.pausedUntil, now + ms);
  }

  #schedule(key: string, now: number): Schedule {
    let schedule = this.#schedules.get(key);
    if (!schedule) {
      // Keys of shops long idle go, so a process serving many shops does not keep one entry per shop forever.
      if (this.#schedules.size >= 1_000) this.#forgetIdle(now);
      schedule = { nextStart: 0, pausedUntil: 0 };
      this.#schedules.set(key, schedule);
    }
    return schedule;
  }

  #forgetIdle(now: number): void {
    for (const [key, schedule] of this.#schedules) {
      if (schedule.nextStart < now && schedule.pausedUntil < now) this.#schedules.delete(key);
    }
  }
}
