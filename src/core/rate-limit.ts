// Zod-free: errors carry these figures, and the error classes must load without zod or ky.

/**
 * The rate-limit figures of one response (reference section 8). Each is null when the response did not carry
 * its header: the daily pair exists on the Established plan only, and unauthenticated failures carry none.
 */
export interface RateLimitInfo {
  /** Requests allowed per minute, shared by every key of the shop (`X-RateLimit-Limit`). */
  readonly limit: number | null;
  /** Requests left in the current minute window (`X-RateLimit-Remaining`). */
  readonly remaining: number | null;
  /** Unix time, in seconds, at which the minute window resets (`X-RateLimit-Reset`). */
  readonly reset: number | null;
  /** Requests allowed per UTC day (`X-RateLimit-Daily-Limit`, Established plan). */
  readonly dailyLimit: number | null;
  /** Requests left today; the day resets at 00:00 UTC (`X-RateLimit-Daily-Remaining`, Established plan). */
  readonly dailyRemaining: number | null;
}

function numberHeader(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** Reads the `X-RateLimit-*` headers; a missing or unreadable header gives null, never an error. */
export function parseRateLimit(headers: Headers): RateLimitInfo {
  return {
    limit: numberHeader(headers, 'x-ratelimit-limit'),
    remaining: numberHeader(headers, 'x-ratelimit-remaining'),
    reset: numberHeader(headers, 'x-ratelimit-reset'),
    dailyLimit: numberHeader(headers, 'x-ratelimit-daily-limit'),
    dailyRemaining: numberHeader(headers, 'x-ratelimit-daily-remaining'),
  };
}

/**
 * `Retry-After` in seconds. The reference sends whole seconds; an HTTP date is accepted too, since proxies
 * in front of the API may rewrite it. Null when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | null {
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
