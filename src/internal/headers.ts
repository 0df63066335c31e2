import { ParamsValidationError } from '../core/errors/params-validation-error.js';
import type { RequestHeaders } from '../core/request-options.js';
import { VERSION } from '../version.js';
import { describeRuntime } from './env.js';

/** `shop-mgmt/<version> (<runtime>)`, sent on every request so the API's logs can tell SDK releases apart. */
export function userAgent(): string {
  return `shop-mgmt/${VERSION} (${describeRuntime()})`;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_VALUE_CHARS = /[\r\n\0]/;
// fetch sends header values as bytes (a ByteString): a character above U+00FF makes it throw a TypeError,
// which the transport could not tell from a failed connection.
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

function refuse(message: string): never {
  throw new ParamsValidationError({ headers: [message] });
}

function apply(into: Record<string, string>, name: unknown, value: unknown): void {
  if (typeof name !== 'string' || !TOKEN.test(name))
    refuse(`${JSON.stringify(name)} is not a valid header name`);
  const key = name.toLowerCase();
  if (value === undefined || value === null) {
    delete into[key];
    return;
  }
  if (typeof value !== 'string') refuse(`the value of ${JSON.stringify(name)} must be a string`);
  if (FORBIDDEN_VALUE_CHARS.test(value)) {
    refuse(`the value of ${JSON.stringify(name)} holds a line break or NUL, which no header may carry`);
  }
  if (BEYOND_LATIN1.test(value)) {
    refuse(
      `the value of ${JSON.stringify(name)} has a character outside Latin-1, which HTTP headers cannot carry; ` +
        'encode it first (encodeURIComponent)',
    );
  }
  into[key] = value;
}

function isHeadersLike(value: object): value is Headers {
  // Duck-typed, so a Headers from a polyfill or another realm is read as one too.
  return typeof (value as Headers).forEach === 'function' && typeof (value as Headers).get === 'function';
}

/**
 * A copy of `base` with the caller's headers applied over it, names lower-cased, so `Authorization` from the
 * caller replaces the SDK's `authorization` instead of being sent beside it; a null or undefined value
 * removes the header. Takes what `fetch` takes (`Headers`, `[name, value]` pairs, a record). A name or
 * value fetch would refuse is refused here with a typed error, before anything is sent.
 */
export function mergeHeaders(
  base: Readonly<Record<string, string>>,
  extra: RequestHeaders | undefined,
): Record<string, string> {
  const merged: Record<string, string> = { ...base };
  if (extra === undefined || extra === null) return merged;
  if (typeof extra !== 'object') {
    refuse('must be a Headers, an array of [name, value] pairs or an object of header values');
  }
  if (Array.isArray(extra)) {
    for (const pair of extra as readonly unknown[]) {
      if (!Array.isArray(pair) || pair.length !== 2)
        refuse('each entry of a header array must be a [name, value] pair');
      apply(merged, pair[0], pair[1]);
    }
  } else if (isHeadersLike(extra)) {
    extra.forEach((value, name) => {
      apply(merged, name, value);
    });
  } else {
    const record = extra as Readonly<Record<string, unknown>>;
    for (const name of Object.keys(record)) apply(merged, name, record[name]);
  }
  return merged;
}
