import { ParamsValidationError } from '../core/errors/params-validation-error.js';
import { describeRuntime } from './env.js';
import { VERSION } from './version.js';

/** `shop-sdk/<version> (<runtime>)`, sent on every request so the API's logs can tell SDK releases apart. */
export function userAgent(): string {
  return `shop-sdk/${VERSION} (${describeRuntime()})`;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_VALUE_CHARS = /[\r\n\0]/;

/**
 * Copies `base` and applies the caller's headers with lower-cased names, so `Authorization` from the caller
 * replaces the SDK's `authorization` instead of being sent beside it. A name or value fetch would refuse
 * (a newline, a space in a name) is refused here with a typed error instead of a bare TypeError later.
 */
export function mergeHeaders(
  base: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const merged: Record<string, string> = { ...base };
  for (const name in extra) {
    const value = extra[name];
    if (value === undefined) continue;
    if (!TOKEN.test(name) || typeof value !== 'string' || FORBIDDEN_VALUE_CHARS.test(value)) {
      throw new ParamsValidationError({ headers: [`${JSON.stringify(name)} is not a valid header`] });
    }
    merged[name.toLowerCase()] = value;
  }
  return merged;
}
