import type { SandboxApiError } from '../errors.js';
import { jsonArrayBytes } from './json.js';
import type { RouteResult, SandboxAnswer } from './route.js';
import { ApiErrorWithHeaders, statusOf } from './status.js';

/** A JSON answer with the given status, body and headers (names in lower case). */
export function jsonAnswer(
  status: number,
  text: string | Uint8Array,
  headers: Readonly<Record<string, string>> = {},
): SandboxAnswer {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) merged[name.toLowerCase()] = value;
  merged['content-type'] = 'application/json';
  return { status, headers: merged, body: text };
}

/** The success envelope `{status: 'ok', data, meta?}`. */
export function successBody(data: unknown, meta?: unknown): unknown {
  return meta === undefined ? { status: 'ok', data } : { status: 'ok', data, meta };
}

/**
 * The success envelope of a route's answer: `JSON.stringify(successBody(data, meta))` as text, or, for a
 * list of stored records (`storedRecords`), the same bytes written from each record's cached JSON.
 */
export function successText(
  result: RouteResult,
  allocate?: (length: number) => Uint8Array,
): string | Uint8Array {
  if (!result.storedRecords || !Array.isArray(result.data)) {
    return JSON.stringify(successBody(result.data, result.meta));
  }
  const meta = result.meta === undefined ? '}' : `,"meta":${JSON.stringify(result.meta)}}`;
  return jsonArrayBytes(result.data as object[], '{"status":"ok","data":', meta, allocate);
}

/**
 * The error envelope `{status: 'error', error: {code, message, details}}` as an answer, with the status of
 * the error's code (`statusOf`) unless `status` is given (an injected fault's own 5xx).
 */
export function errorAnswer(
  error: SandboxApiError,
  headers: Readonly<Record<string, string>> = {},
  status = statusOf(error.code),
): SandboxAnswer {
  return jsonAnswer(
    status,
    JSON.stringify({
      status: 'error',
      error: { code: error.code, message: error.message, details: error.details },
    }),
    error instanceof ApiErrorWithHeaders ? { ...headers, ...error.headers } : headers,
  );
}
