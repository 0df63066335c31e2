import type { SandboxClock } from '../clock.js';
import type { SandboxPlan, SandboxRateLimits } from '../options.js';
import { rateLimited } from './status.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const LIMITS: Record<SandboxPlan, { perMinute: number; perDay: number | null }> = {
  established: { perMinute: 60, perDay: 10_000 },
  enterprise: { perMinute: 600, perDay: null },
};

/**
 * The shop's request budget (reference section 8): one per shop, shared by all its keys. The
 * minute window is aligned to the clock's minute (X-RateLimit-Reset is when it ends); the daily one
 * resets at 00:00 UTC.
 */
export class RateLimiter {
  private minuteStart = -1;
  private minuteCount = 0;
  private dayStart = -1;
  private dayCount = 0;

  constructor(
    private readonly clock: SandboxClock,
    private readonly plan: () => SandboxPlan,
    private readonly overrides: SandboxRateLimits = {},
  ) {}

  /** The plan's figures, with the sandbox's `rateLimits` option laid over them. */
  private limits(): { perMinute: number; perDay: number | null } {
    const plan = LIMITS[this.plan()];
    return {
      perMinute: this.overrides.perMinute ?? plan.perMinute,
      perDay: this.overrides.perDay === undefined ? plan.perDay : this.overrides.perDay,
    };
  }

  /** Counts one request, or throws 429 RATE_LIMITED (not counted). Returns the headers to send. */
  take(): Record<string, string> {
    const now = this.clock.nowMs();
    const limits = this.limits();
    const minuteStart = now - (now % MINUTE_MS);
    const dayStart = now - (now % DAY_MS);
    if (minuteStart !== this.minuteStart) [this.minuteStart, this.minuteCount] = [minuteStart, 0];
    if (dayStart !== this.dayStart) [this.dayStart, this.dayCount] = [dayStart, 0];
    const overMinute = this.minuteCount >= limits.perMinute;
    const overDay = limits.perDay !== null && this.dayCount >= limits.perDay;
    if (!overMinute && !overDay) {
      this.minuteCount += 1;
      this.dayCount += 1;
    }
    const headers = this.headers();
    if (overMinute || overDay) {
      const resetAt = overDay ? dayStart + DAY_MS : minuteStart + MINUTE_MS;
      throw rateLimited(
        overDay ? 'Daily request limit reached' : 'Per-minute request limit reached',
        resetAt - now,
        this.clock.wallMs(resetAt - now),
      );
    }
    return headers;
  }

  /** The X-RateLimit-* headers as of now, without counting a request. */
  headers(): Record<string, string> {
    const limits = this.limits();
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limits.perMinute),
      'x-ratelimit-remaining': String(Math.max(0, limits.perMinute - this.minuteCount)),
      'x-ratelimit-reset': String((this.minuteStart + MINUTE_MS) / 1000),
    };
    if (limits.perDay !== null) {
      headers['x-ratelimit-daily-limit'] = String(limits.perDay);
      headers['x-ratelimit-daily-remaining'] = String(Math.max(0, limits.perDay - this.dayCount));
    }
    return headers;
  }
}
