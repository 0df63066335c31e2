import { ERROR_CODE_STATUS, type ErrorCode } from '../generated/error-codes.js';

/**
 * An API error the sandbox answers with: thrown anywhere inside a route handler and turned into the
 * reference's error envelope `{status: 'error', error: {code, message, details}}` by the pipeline.
 */
export class SandboxApiError extends Error {
  override readonly name = 'SandboxApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * The sandbox's status for a code the reference names without one (`ERROR_CODE_STATUS` holds null):
 * MEMBERSHIP_FULL answers 409, as the other capacity conflicts (SESSION_FULL) do.
 */
const SANDBOX_STATUS: Partial<Record<ErrorCode, number>> = { MEMBERSHIP_FULL: 409 };

/**
 * The API error for `code`, with the HTTP status the generated error-code table (reference section 7)
 * gives it: no error site spells a status.
 */
export function apiError(
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): SandboxApiError {
  const status = ERROR_CODE_STATUS[code] ?? SANDBOX_STATUS[code];
  if (status === undefined) throw new Error(`sandbox: no HTTP status for error code ${code}`);
  return new SandboxApiError(status, code, message, details, headers);
}

/**
 * Thrown to the partner's own test code when it drives the sandbox wrongly (a bad webhook URL, a register
 * action on a gun in the wrong state, an unknown permission name). It never travels over HTTP.
 */
export class SandboxUsageError extends Error {
  override readonly name = 'SandboxUsageError';
}

/** 400 VALIDATION_ERROR with the reference's per-field details (field name -> list of messages). */
export function validationError(details: Record<string, string[]>): SandboxApiError {
  const fields = Object.keys(details).join(', ');
  return apiError('VALIDATION_ERROR', `Invalid request: ${fields}`, details);
}

/** 422 INVALID_REFERENCE: the request names records the shop does not have (details per field). */
export function invalidReference(details: Record<string, string[]>): SandboxApiError {
  return apiError('INVALID_REFERENCE', 'The request names records this shop does not have', details);
}

/** 404 NOT_FOUND: also the answer for records at a location the key cannot see (reference section 1). */
export function notFound(what: string): SandboxApiError {
  return apiError('NOT_FOUND', `No such ${what}`);
}

/** 409 INVALID_STATE: the record's status does not allow the action. */
export function invalidState(what: string, status: string, action: string): SandboxApiError {
  return apiError('INVALID_STATE', `A ${what} in status ${status} cannot be ${action}`, {
    status,
  });
}

/**
 * 429 RATE_LIMITED. `Retry-After` is the wait in real time, whole seconds (0 on a frozen clock: waiting
 * moves nothing there, so a client retries at once); `X-Sandbox-Retry-After` is the same wait in sandbox
 * seconds, what a test advances the clock by.
 */
export function rateLimited(message: string, sandboxMs: number, wallMs: number): SandboxApiError {
  const seconds = wallMs <= 0 ? 0 : Math.max(1, Math.ceil(wallMs / 1000));
  return apiError(
    'RATE_LIMITED',
    message,
    {},
    {
      'Retry-After': String(seconds),
      'X-Sandbox-Retry-After': String(Math.max(1, Math.ceil(sandboxMs / 1000))),
    },
  );
}
