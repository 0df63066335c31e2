import type { SandboxApiError } from '../errors.js';

/** A JSON response with the given status and headers. */
export function jsonResponse(status: number, body: unknown, headers?: HeadersInit): Response {
  const merged = new Headers(headers);
  merged.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(body), { status, headers: merged });
}

/** The success envelope `{status: 'ok', data, meta?}`. */
export function successBody(data: unknown, meta?: unknown): unknown {
  return meta === undefined ? { status: 'ok', data } : { status: 'ok', data, meta };
}

/** The error envelope `{status: 'error', error: {code, message, details}}` as a response. */
export function errorResponse(error: SandboxApiError, headers?: HeadersInit): Response {
  const merged = new Headers(headers);
  for (const [name, value] of Object.entries(error.headers)) merged.set(name, value);
  return jsonResponse(
    error.status,
    { status: 'error', error: { code: error.code, message: error.message, details: error.details } },
    merged,
  );
}
