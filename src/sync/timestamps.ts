// Orders the API's ISO-8601 timestamps exactly. Date.parse keeps milliseconds only, so two updates within one
// millisecond (microsecond timestamps) would tie and the older could overwrite the newer.

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

interface Instant {
  readonly seconds: number;
  /** Fractional digits with trailing zeros dropped, so `.5` and `.500` compare equal. */
  readonly fraction: string;
}

function instant(value: string): Instant | null {
  const match = ISO.exec(value);
  if (!match) return null;
  const ms = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(ms)) return null;
  return { seconds: ms / 1000, fraction: (match[2] ?? '').replace(/0+$/, '') };
}

/** True when `value` is an ISO-8601 timestamp these helpers can order. */
export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && instant(value) !== null;
}

/** Negative, zero or positive as `a` is before, at or after `b`; both must pass {@link isTimestamp}. */
export function compareTimestamps(a: string, b: string): number {
  const x = instant(a);
  const y = instant(b);
  if (!x || !y) throw new RangeError(`Not an ISO-8601 timestamp: ${!x ? a : b}`);
  if (x.seconds !== y.seconds) return x.seconds - y.seconds;
  const width = Math.max(x.fraction.length, y.fraction.length);
  const fx = x.fraction.padEnd(width, '0');
  const fy = y.fraction.padEnd(width, '0');
  return fx < fy ? -1 : fx > fy ? 1 : 0;
}

/** `value` moved `seconds` earlier, floored to the second: a safe lower bound for `updated_since`. */
export function secondsBefore(value: string, seconds: number): string {
  const at = instant(value);
  if (!at) throw new RangeError(`Not an ISO-8601 timestamp: ${value}`);
  return new Date((at.seconds - seconds) * 1000).toISOString();
}
