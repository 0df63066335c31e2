import { usageError } from './exit-codes.js';

/** `a,b , c` -> ['a', 'b', 'c']; undefined or blank -> undefined. */
export function list(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A whole number in [min, max] from a flag, or a usage error naming the flag. */
export function wholeNumber(
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw usageError(`--${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return number;
}

/** `reservations=50000,customers=10` -> { reservations: 50000, customers: 10 }. */
export function counts(value: string | undefined, flag: string): Record<string, number> | undefined {
  const items = list(value);
  if (!items) return undefined;
  const result: Record<string, number> = {};
  for (const item of items) {
    const [name, count, ...rest] = item.split('=');
    if (!name || count === undefined || rest.length > 0) {
      throw usageError(
        `--${flag} takes kind=count pairs, e.g. reservations=50000, got ${JSON.stringify(item)}`,
      );
    }
    result[name] = wholeNumber(count, flag, 0, Number.MAX_SAFE_INTEGER)!;
  }
  return result;
}

/**
 * An http(s) URL from a flag (`forward-to`) or an environment variable (`SHOP_API_BASE_URL`, named as it is
 * written), or a usage error naming it; `localhost:4010` gets the fix the client offers (`http://localhost:4010`).
 */
export function httpUrl(value: string, flag: string): string {
  const name = /^[A-Z0-9_]+$/.test(flag) ? flag : `--${flag}`;
  const hint = /^[\w.-]+:\d+(\/|$)/.test(value) ? ` (did you mean "http://${value}"?)` : '';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(
      `${name} must be a URL such as http://localhost:3000/webhooks/shop, got ${JSON.stringify(value)}${hint}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usageError(`${name} must be an http or https URL, got ${JSON.stringify(value)}${hint}`);
  return url.toString();
}

/** How the sandbox clock moves: frozen, real, or `<N>x` (N times wall speed). */
export function clockSpeed(value: string): { mode: 'frozen' | 'real'; speed: number | null } {
  if (value === 'frozen' || value === 'real') return { mode: value, speed: null };
  const match = /^(\d+(?:\.\d+)?)x$/.exec(value);
  const speed = match ? Number(match[1]) : Number.NaN;
  if (!(speed > 0 && speed <= 100_000)) {
    throw usageError(`--clock must be frozen, real or a speed such as 60x, got ${JSON.stringify(value)}`);
  }
  return { mode: 'real', speed };
}

/** Every value of a repeated string flag (`--header a --header b`, or `--header=a`), read from the raw argv. */
export function repeatedFlag(rawArgs: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index < rawArgs.length; index++) {
    const arg = rawArgs[index]!;
    if (arg === `--${name}` && index + 1 < rawArgs.length) values.push(rawArgs[++index]!);
    else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
  }
  return values;
}
