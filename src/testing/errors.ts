import type { ErrorCode } from '../generated/error-codes.js';

/** An API error by its code, thrown by domain and routes alike; only http/ gives it a status and envelope. */
export class SandboxApiError extends Error {
  override readonly name = 'SandboxApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The API error for `code`: no error site spells a status (the HTTP layer maps the code to one). */
export function apiError(
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): SandboxApiError {
  return new SandboxApiError(code, message, details);
}

/**
 * Thrown to the partner's own test code when it drives the sandbox wrongly (a bad webhook URL, a register
 * action on a gun in the wrong state, an unknown permission name). It never travels over HTTP.
 */
export class SandboxUsageError extends Error {
  override readonly name = 'SandboxUsageError';
}

/**
 * Where a domain rule reports a problem with one input field while a request's fields are read (an unknown
 * `customer_id`, a plan the shop does not have): every problem found is answered together, as one 400
 * VALIDATION_ERROR naming each field, before anything changes. The HTTP layer's field reader is one.
 */
export interface FieldProblems {
  fail(field: string, message: string): void;
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
