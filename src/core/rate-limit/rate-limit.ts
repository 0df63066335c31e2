/** The rate-limit figures of one response; null where a header is missing. */
export interface RateLimitInfo {
  /** Requests per minute, shared by every key of the shop. */
  readonly limit: number | null;
  /** Left in the current minute. */
  readonly remaining: number | null;
  /** Unix seconds. */
  readonly reset: number | null;
  readonly dailyLimit: number | null;
  /** The day resets at 00:00 UTC. */
  readonly dailyRemaining: number | null;
}

function numberHeader(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** Reads the `X-RateLimit-*` headers; an unreadable one gives null. */
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
// The three HTTP-date forms exactly: Date.parse would also take '-1' (the year 2001) or a local date.
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/** Epoch ms of a UTC date; null for 31 Feb and the like. */
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

/** An HTTP-date (any of its three forms) in epoch ms, else null. */
function parseHttpDate(value: string, now: number): number | null {
  let match = IMF_FIXDATE.exec(value);
  if (match) {
    const [, day, month, year, h, m, s] = match;
    return utc(Number(year), month!, Number(day), Number(h), Number(m), Number(s));
  }
  match = RFC_850.exec(value);
  if (match) {
    const [, day, month, yy, h, m, s] = match;
    // RFC 9110: a two-digit year over 50 years ahead is in the past century.
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

/** `Retry-After` in seconds (delta-seconds or an HTTP-date). */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | null {
  const raw = headers.get('retry-after');
  if (!raw) return null;
  // Past 2^53: still over any cap, so the call fails fast.
  if (/^\d+$/.test(raw)) return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
  const date = parseHttpDate(raw, now);
  return date === null ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
