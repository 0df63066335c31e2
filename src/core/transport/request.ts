import type { HttpMethod, Operation } from '../api/operation.js';
import type { RequestParams } from '../api/params.js';
import type { RequestOptions } from '../api/request-options.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';
import type { Checker } from '../validation/lazy-validation.js';
import { mergeHeaders } from './headers.js';
import { compilePath, type PathBuilder } from './path.js';

/** The request of one call, the same for every attempt. */
export interface Prepared {
  readonly label: string;
  readonly url: string;
  readonly method: HttpMethod;
  /** Copied by ky into every attempt's Request. */
  readonly headers: Readonly<Record<string, string>>;
  /** The caller's headers left `authorization` alone: each attempt adds the key's. */
  readonly keyed: boolean;
  readonly body: string | undefined;
  readonly idempotencyKey: string | null;
  /** A DELETE's result on a 2xx with no body. */
  readonly emptyResult: Readonly<Record<string, unknown>> | undefined;
  /** What the answer is checked with. */
  readonly checker: Checker;
}

/** The headers every request of a client starts from. */
export interface BaseHeaders {
  readonly plain: Readonly<Record<string, string>>;
  /** The same with `content-type: application/json`. */
  readonly json: Readonly<Record<string, string>>;
  /** False when the default headers name `authorization`: the key's is not added. */
  readonly keyed: boolean;
}

/** A placeholder `authorization` value while headers are merged: still there after, the key is sent. */
const KEY_SLOT = '\0key';

export function baseHeaders(defaultHeaders: Readonly<Record<string, string>>): BaseHeaders {
  return {
    plain: defaultHeaders,
    json: { ...defaultHeaders, 'content-type': 'application/json' },
    keyed: !('authorization' in defaultHeaders),
  };
}

/** The `Authorization` value of an API key. */
export function bearer(key: string): string {
  return `Bearer ${key}`;
}

const paths = new WeakMap<Operation, PathBuilder>();

/** The request of a checked call, built once for all attempts. */
export function prepare(
  baseUrl: string,
  base: BaseHeaders,
  operation: Operation,
  checker: Checker,
  params: RequestParams,
  options: RequestOptions | undefined,
): Prepared {
  let buildPath = paths.get(operation);
  if (!buildPath) {
    buildPath = compilePath(operation.path, operation.pathParams, operation.id);
    paths.set(operation, buildPath);
  }
  const path = buildPath(params.path);
  const body = params.body === undefined ? undefined : serialise(operation, params.body);
  let headers = body === undefined ? base.plain : base.json;
  let keyed = base.keyed;
  if (options?.headers) {
    const merged = mergeHeaders(keyed ? { ...headers, authorization: KEY_SLOT } : headers, options.headers);
    keyed = merged.authorization === KEY_SLOT;
    if (keyed) delete merged.authorization;
    headers = merged;
  }
  let idempotencyKey: string | null = null;
  if (operation.method === 'POST') {
    idempotencyKey = resolveIdempotencyKey(options?.idempotencyKey ?? headers['idempotency-key']);
    headers = { ...headers, 'idempotency-key': idempotencyKey };
  }
  return {
    label: `${operation.method} ${path}`,
    url: baseUrl + path + encodeQuery(params.query),
    method: operation.method,
    headers,
    keyed,
    body,
    idempotencyKey,
    emptyResult: operation.method === 'DELETE' ? deletedStub(operation, params) : undefined,
    checker,
  };
}

/** `prepared` with `extra` added to its query string. */
export function withQuery(prepared: Prepared, extra: Readonly<Record<string, unknown>>): Prepared {
  const added = encodeQuery(extra);
  if (added === '') return prepared;
  const url = prepared.url.includes('?') ? `${prepared.url}&${added.slice(1)}` : prepared.url + added;
  return { ...prepared, url };
}

/** A DELETE's empty answer: `{ id, deleted: true }`, the id from the path's last parameter. */
function deletedStub(operation: Operation, params: RequestParams): Record<string, unknown> {
  const last = operation.pathParams[operation.pathParams.length - 1];
  const value = last === undefined ? undefined : params.path?.[last.name];
  if (value === undefined) return { deleted: true };
  return { id: last?.type === 'integer' ? Number(value) : value, deleted: true };
}

/** The JSON body; a cycle or BigInt is refused before sending. */
function serialise(operation: Operation, body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ParamsValidationError(
      { body: [`cannot be sent as JSON: ${(error as Error).message}`] },
      operation.id,
    );
  }
}

/** The API refuses longer keys (reference section 8). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 100;

/** The caller's Idempotency-Key, else a UUID v4: once per call, so every retry sends the same one. */
export function resolveIdempotencyKey(callerKey: string | undefined): string {
  if (callerKey === undefined) return globalThis.crypto.randomUUID();
  if (typeof callerKey !== 'string' || callerKey.length === 0) {
    throw new ParamsValidationError({ idempotencyKey: ['must be a non-empty string'] });
  }
  if (callerKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ParamsValidationError({
      idempotencyKey: [`must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${callerKey.length}`],
    });
  }
  // Printable ASCII only; anything else fails inside fetch with a bare TypeError.
  if (!/^[\x20-\x7e]+$/.test(callerKey)) {
    throw new ParamsValidationError({ idempotencyKey: ['must be printable ASCII'] });
  }
  return callerKey;
}

// Query values: true/false, arrays comma-separated, a Date as ISO, null and undefined left out; each
// percent-encoded whole, so an opaque cursor arrives byte for byte.

function scalar(name: string, value: unknown): string {
  switch (typeof value) {
    case 'string':
      try {
        return encodeURIComponent(value);
      } catch {
        break; // a lone surrogate: the typed error below
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

/** `query` as `?a=1&b=2`, or `''` when nothing is left. */
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
