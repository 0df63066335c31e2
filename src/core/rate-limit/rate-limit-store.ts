import { monotonicNow } from '../../internal/monotonic.js';

// The API counts requests per shop across keys and processes, so processes of one shop share one schedule.

/** Milliseconds to wait and the slot taken, or `slot: null` when the wait would exceed `maxWaitMs`. */
export interface RateLimitReservation {
  readonly waitMs: number;
  /** The slot's start on the store's clock, to hand back after waiting; null when refused. */
  readonly slot: number | null;
}

/** A schedule of request starts per key (a shop); atomic per key: no two reservations get the same slot. */
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
  /** The earliest start of the next reservation. */
  nextStart: number;
  pausedUntil: number;
}

/** The reservation rule (the Redis script spells it in Lua): the later of now, the next free start and a pause's end. */
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
      // Idle shops' keys go, so a process serving many shops does not grow.
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
