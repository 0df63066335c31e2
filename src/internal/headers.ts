import { VERSION } from '../version.js';
import { describeRuntime } from './env.js';

/** `shop-mgmt/<version> (<runtime>)`, sent on every request. */
export function userAgent(): string {
  return `shop-mgmt/${VERSION} (${describeRuntime()})`;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_VALUE_CHARS = /[\r\n\0]/;
// fetch throws a TypeError on a header character above U+00FF, like a failed connection.
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/** Applies one header to `into`; returns what is wrong with it instead, or null. */
function apply(into: Record<string, string>, name: unknown, value: unknown): string | null {
  if (typeof name !== 'string' || !TOKEN.test(name))
    return `${JSON.stringify(name)} is not a valid header name`;
  const key = name.toLowerCase();
  if (value === undefined || value === null) {
    delete into[key];
    return null;
  }
  if (typeof value !== 'string') return `the value of ${JSON.stringify(name)} must be a string`;
  if (FORBIDDEN_VALUE_CHARS.test(value)) {
    return `the value of ${JSON.stringify(name)} holds a line break or NUL, which no header may carry`;
  }
  if (BEYOND_LATIN1.test(value)) {
    return (
      `the value of ${JSON.stringify(name)} has a character outside Latin-1, which HTTP headers cannot carry; ` +
      'encode it first (encodeURIComponent)'
    );
  }
  into[key] = value;
  return null;
}

/** Headers merged, or what is wrong with the first one that could not be. */
export type MergedHeaders =
  | { readonly headers: Record<string, string>; readonly problem: null }
  | { readonly headers: null; readonly problem: string };

function isHeadersLike(value: object): value is Headers {
  // Duck-typed: a Headers from a polyfill or another realm.
  return typeof (value as Headers).forEach === 'function' && typeof (value as Headers).get === 'function';
}

/** `base` with the caller's headers over it; null removes one. Returns a problem, never throws. */
export function mergeHeaderValues(base: Readonly<Record<string, string>>, extra: unknown): MergedHeaders {
  const merged: Record<string, string> = { ...base };
  const refused = (problem: string): MergedHeaders => ({ headers: null, problem });
  if (extra === undefined || extra === null) return { headers: merged, problem: null };
  if (typeof extra !== 'object') {
    return refused('must be a Headers, an array of [name, value] pairs or an object of header values');
  }
  if (Array.isArray(extra)) {
    for (const pair of extra as readonly unknown[]) {
      if (!Array.isArray(pair) || pair.length !== 2)
        return refused('each entry of a header array must be a [name, value] pair');
      const problem = apply(merged, pair[0], pair[1]);
      if (problem !== null) return refused(problem);
    }
  } else if (isHeadersLike(extra)) {
    let problem: string | null = null;
    extra.forEach((value, name) => {
      problem ??= apply(merged, name, value);
    });
    if (problem !== null) return refused(problem);
  } else {
    const record = extra as Readonly<Record<string, unknown>>;
    for (const name of Object.keys(record)) {
      const problem = apply(merged, name, record[name]);
      if (problem !== null) return refused(problem);
    }
  }
  return { headers: merged, problem: null };
}
