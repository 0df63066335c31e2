import { ParamsValidationError } from './errors/params-validation-error.js';

// Query encoding of the design's "Transport rules": booleans as true/false, arrays comma-separated, a Date as
// its ISO string, undefined and null left out. Values are percent-encoded whole, so an opaque cursor reaches
// the server byte for byte (a `+` stays a plus, not a space).

function scalar(name: string, value: unknown): string {
  switch (typeof value) {
    case 'string':
      try {
        return encodeURIComponent(value);
      } catch {
        break; // a lone UTF-16 surrogate cannot be percent-encoded: the typed error below says so
      }
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Number.isFinite(value)) return String(value);
      break;
    case 'object':
      if (value instanceof Date && !Number.isNaN(value.getTime()))
        return encodeURIComponent(value.toISOString());
      break;
  }
  throw new ParamsValidationError({
    [name]: ['must be a well-formed string, a finite number, a boolean, a valid Date or an array of them'],
  });
}

/** `query` as a query string with its leading `?`, or `''` when nothing is left to send. */
export function encodeQuery(query: Readonly<Record<string, unknown>> | undefined | null): string {
  if (!query) return '';
  let out = '';
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    let encoded: string;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      encoded = value.map((item) => scalar(name, item)).join(',');
    } else {
      encoded = scalar(name, value);
    }
    out += `${out === '' ? '?' : '&'}${encodeURIComponent(name)}=${encoded}`;
  }
  return out;
}
