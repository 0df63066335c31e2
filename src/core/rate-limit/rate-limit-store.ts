import { monotonicNow } from '../../internal/monotonic.js';

// The API counts per shop across keys and processes, so a shop's processes share one schedule.

/** The wait in ms and the slot taken (null: the wait exceeds `maxWaitMs`). */
export interface RateLimitReservation {
  readonly waitMs: number;
  /** The slot's start on the store's clock, handed back after the wait. */
  readonly slot: number | null;
}

/** Request start times per key (a shop), atomic per key. */
export interface RateLimitStore {
  /** Takes the next start for `key`, `intervalMs` after the one before and outside any pause (GCRA). */
  reserve(
    key: string,
    intervalMs: number,
    maxWaitMs: number,
    heldSlot?: number | null,
  ): Promise<RateLimitReservation>;
  /** Holds every start for `key` for `ms` from now; a longer pause already set stays. */
  pause(key: string, ms: number): Promise<void>;
}

interface Schedule {
  nextStart: number;
  pausedUntil: number;
}

/** The reservation rule (the Redis store's Lua repeats it): the latest of now, next start, pause end. */
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

/** A {@link RateLimitStore} in memory, the default; share one between clients of a shop in one process. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #schedules = new Map<string, Schedule>();

  reserve(
    key: string,
    intervalMs: number,
    maxWaitMs: number,
    heldSlot?: number | null,
  ): Promise<RateLimitReservation> {
    return Promise.resolve(this.reserveNow(key, intervalMs, maxWaitMs, heldSlot));
  }

  pause(key: string, ms: number): Promise<void> {
    this.pauseNow(key, ms);
    return Promise.resolve();
  }

  /** @internal {@link reserve}, synchronous. */
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

  /** @internal {@link pause}, synchronous. */
  pauseNow(key: string, ms: number): void {
    const now = monotonicNow();
    const schedule = this.#schedule(key, now);
    schedule.pausedUntil = Math.max(schedule.pausedUntil, now + ms);
  }

  #schedule(key: string, now: number): Schedule {
    let schedule = this.#schedules.get(key);
    if (!schedule) {
      // Forget idle shops, so memory stays bounded.
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
