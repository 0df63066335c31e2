// Bounds of the numeric options: each `...Problem` says what is wrong with a value, or null.

/** The longest setTimeout delay (ms); a longer one runs after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** {@link MAX_TIMER_MS} in whole seconds (24.8 days). */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

export function countProblem(value: unknown): string | null {
  return Number.isSafeInteger(value) && (value as number) >= 0
    ? null
    : `must be a non-negative integer, got ${String(value)}`;
}

export function timeoutProblem(value: unknown): string | null {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS
    ? null
    : `must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${String(value)}`;
}

export function secondsProblem(value: unknown): string | null {
  return typeof value === 'number' && value >= 0 && value <= MAX_TIMER_SECONDS
    ? null
    : `must be a number of seconds from 0 to ${MAX_TIMER_SECONDS}, got ${String(value)}`;
}

/** The largest `maxResponseBytes`: 256 MiB. */
export const MAX_RESPONSE_BYTES_LIMIT = 256 * 1024 * 1024;

export function byteCountProblem(value: unknown): string | null {
  return Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= MAX_RESPONSE_BYTES_LIMIT
    ? null
    : `must be a positive integer of bytes up to ${MAX_RESPONSE_BYTES_LIMIT}, got ${String(value)}`;
}

/** The default `maxResponseBytes`: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
