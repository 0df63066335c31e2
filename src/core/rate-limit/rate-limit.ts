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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// The three forms of HTTP-date (RFC 9110 section 5.6.7), exactly: Date.parse would also take '-1' (as the
// year 2001, so no wait at all), an ISO string or a date in a local zone.
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/** Milliseconds since the epoch of a UTC date, or null when the fields name no real moment (31 Feb). */
function utc(year: number, month: string, day: number, hours: number, minutes: number, seconds: number) {
  const monthIndex = MONTHS.indexOf(month);
  const time = Date.UTC(year, monthIndex, day, hours, minutes, seconds);
  const date = new Date(time);
  const exact =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === monthIndex &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hours &&
    date.getUTCMinutes() === minutes &&
    date.getUTCSeconds() === seconds;
  return exact ? time : null;
}

/** An HTTP-date in any of its three forms, as epoch milliseconds; null for anything else. */
function parseHttpDate(value: string, now: number): number | null {
  let match = IMF_FIXDATE.exec(value);
  if (match) {
    const [, day, month, year, h, m, s] = match;
    return utc(Number(year), month!, Number(day), Number(h), Number(m), Number(s));
  }
  match = RFC_850.exec(value);
  if (match) {
    const [, day, month, yy, h, m, s] = match;
    // A two-digit year more than 50 years ahead is the latest past year with those digits (RFC 9110).
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(yy);
    if (year > thisYear + 50) year -= 100;
    return utc(year, month!, Number(day), Number(h), Number(m), Number(s));
  }
  match = ASCTIME.exec(value);
  if (match) {
    const [, month, day, h, m, s, year] = match;
    return utc(Number(year), month!, Number(day), Number(h), Number(m), Number(s));
  }
  return null;
}

/**
 * `Retry-After` in seconds: delta-seconds (a non-negative integer, what the reference sends) or an HTTP-date,
 * which proxies in front of the API may send instead (a date already past means now: 0). Null when absent
 * or in any other form, so the caller backs off instead of trusting a misread wait. Always finite.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | null {
  const raw = headers.get('retry-after');
  if (!raw) return null;
  // Digits past 2^53 are no wait a client could keep (and 309 of them read as Infinity): the largest exact
  // number stands in, still far over any maxRetryAfterSeconds, so the call fails fast rather than backing off.
  if (/^\d+$/.test(raw)) return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
  const date = parseHttpDate(raw, now);
  return date === null ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
