// Caller data reaches the URL's path only here: each segment encoded whole, `.` and `..` refused.

/** A `{name}` segment of an operation's path. */
export interface PathParam {
  /** Also the key of `params.path`. */
  readonly name: string;
  /** `integer`: a safe integer or digits. */
  readonly type: 'integer' | 'string';
}

/** Why a value cannot fill the placeholder `name`. */
export interface PathProblem {
  readonly name: string;
  readonly problem: string;
}

/** An encoded path, or what is wrong with one of its values. */
export type FilledPath =
  | { readonly path: string; readonly problem: null }
  | {
      readonly path: null;
      readonly problem: PathProblem;
    };

/** `value` as one encoded segment, or what is wrong with it. */
export function encodePathSegment(value: unknown, name: string): string | PathProblem {
  const refuse = (problem: string): PathProblem => ({ name, problem });
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return refuse('must be a finite number');
    return String(value);
  }
  if (typeof value !== 'string') return refuse(`must be a string or a number, got ${typeof value}`);
  if (value === '' || value === '.' || value === '..') return refuse(`must not be ${JSON.stringify(value)}`);
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone surrogate would make encodeURIComponent throw a bare URIError.
    return refuse('must be a well-formed string (it holds a lone UTF-16 surrogate)');
  }
}

function fillParam(param: PathParam, value: unknown): string | PathProblem {
  if (value === undefined || value === null) return { name: param.name, problem: 'is required' };
  if (param.type === 'integer') {
    const ok =
      (typeof value === 'number' && Number.isSafeInteger(value)) ||
      (typeof value === 'string' && /^\d+$/.test(value));
    if (!ok) return { name: param.name, problem: `must be an integer id, got ${shownValue(value)}` };
  }
  return encodePathSegment(value, param.name);
}

/** Fills a path template such as `/v1/range/reservations/{id}/cancel`. */
export type PathFiller = (params: Readonly<Record<string, unknown>> | undefined) => FilledPath;

/** Splits `template` once, so a request only concatenates. */
export function pathFiller(template: string, pathParams: readonly PathParam[]): PathFiller {
  const pieces = template.split(/\{([^}]+)\}/);
  if (pieces.length === 1) return () => ({ path: template, problem: null });
  const byName = new Map(pathParams.map((param) => [param.name, param]));
  return (params) => {
    let out = pieces[0] ?? '';
    for (let i = 1; i < pieces.length; i += 2) {
      const name = pieces[i] ?? '';
      const segment = fillParam(byName.get(name) ?? { name, type: 'string' }, params?.[name]);
      if (typeof segment !== 'string') return { path: null, problem: segment };
      out += segment + (pieces[i + 1] ?? '');
    }
    return { path: out, problem: null };
  };
}

/** A value as an error message shows it (NaN, not null). */
function shownValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
