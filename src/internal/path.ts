import { ParamsValidationError } from '../core/errors/params-validation-error.js';
import type { PathParam } from '../core/operation.js';

// A path segment is the one place caller data reaches the URL's path, so it is encoded whole and the dot
// segments a URL parser would resolve (`..` climbing out of /v1/range) are refused outright.

function refuse(name: string, message: string, operation: string | null = null): never {
  throw new ParamsValidationError({ [name]: [message] }, operation);
}

/** `value` as one encoded path segment; refuses empty values, `.` and `..`, and non-scalar values. */
export function encodePathSegment(value: unknown, name: string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(name, 'must be a finite number');
    return String(value);
  }
  if (typeof value !== 'string') refuse(name, `must be a string or a number, got ${typeof value}`);
  if (value === '' || value === '.' || value === '..') refuse(name, `must not be ${JSON.stringify(value)}`);
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone UTF-16 surrogate has no UTF-8 form: encodeURIComponent throws a bare URIError.
    return refuse(name, 'must be a well-formed string (it holds a lone UTF-16 surrogate)');
  }
}

function checkParam(param: PathParam, value: unknown, operation: string | null): string {
  if (value === undefined || value === null) refuse(param.name, 'is required', operation);
  if (param.type === 'integer') {
    const ok =
      (typeof value === 'number' && Number.isSafeInteger(value)) ||
      (typeof value === 'string' && /^\d+$/.test(value));
    if (!ok) refuse(param.name, `must be an integer id, got ${shownValue(value)}`, operation);
  }
  try {
    return encodePathSegment(value, param.name);
  } catch (error) {
    if (error instanceof ParamsValidationError) throw new ParamsValidationError(error.details, operation);
    throw error;
  }
}

/** Fills an operation's path template such as `/v1/range/reservations/{id}/cancel`. */
export type PathBuilder = (params: Readonly<Record<string, unknown>> | undefined) => string;

/**
 * Splits `template` once, so a request only concatenates. Placeholders not listed in `pathParams` are
 * treated as strings.
 */
export function compilePath(
  template: string,
  pathParams: readonly PathParam[],
  operation: string | null = null,
): PathBuilder {
  const pieces = template.split(/\{([^}]+)\}/);
  if (pieces.length === 1) return () => template;
  const byName = new Map(pathParams.map((param) => [param.name, param]));
  return (params) => {
    let out = pieces[0] ?? '';
    for (let i = 1; i < pieces.length; i += 2) {
      const name = pieces[i] ?? '';
      out +=
        checkParam(byName.get(name) ?? { name, type: 'string' }, params?.[name], operation) +
        (pieces[i + 1] ?? '');
    }
    return out;
  };
}

/** A value as an error message shows it: NaN and Infinity as themselves (JSON.stringify would say null). */
function shownValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
