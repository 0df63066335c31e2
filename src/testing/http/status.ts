import { ERROR_CODE_STATUS, type ErrorCode } from '../../generated/error-codes.js';
import { SandboxApiError } from '../errors.js';

/**
 * The sandbox's status for a code the reference names without one (`ERROR_CODE_STATUS` holds null):
 * MEMBERSHIP_FULL answers 409, as the other capacity conflicts (SESSION_FULL) do.
 */
const SANDBOX_STATUS: Partial<Record<ErrorCode, number>> = { MEMBERSHIP_FULL: 409 };

/** The HTTP status of an error code: the generated error-code table (reference section 7), else the sandbox's own. */
export function statusOf(code: ErrorCode): number {
  const status = ERROR_CODE_STATUS[code] ?? SANDBOX_STATUS[code];
  if (status === undefined) throw new Error(`sandbox: no HTTP status for error code ${code}`);
  return status;
}

/** Every code the sandbox can answer with has a status (checked once, when the HTTP layer loads). */
for (const code of Object.keys(ERROR_CODE_STATUS) as ErrorCode[]) statusOf(code);

/** An API error that also sets response headers: 429 RATE_LIMITED's Retry-After (the HTTP layer's own). */
export class ApiErrorWithHeaders extends SandboxApiError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    super(code, message);
  }
}

/**
 * 429 RATE_LIMITED. `Retry-After` is the wait in real time, whole seconds (0 on a frozen clock: waiting
 * moves nothing there, so a client retries at once); `X-Sandbox-Retry-After` is the same wait in sandbox
 * seconds, what a test advances the clock by.
 */
export function rateLimited(message: string, sandboxMs: number, wallMs: number): SandboxApiError {
  const seconds = wallMs <= 0 ? 0 : Math.max(1, Math.ceil(wallMs / 1000));
  return new ApiErrorWithHeaders('RATE_LIMITED', message, {
    'Retry-After': String(seconds),
    'X-Sandbox-Retry-After': String(Math.max(1, Math.ceil(sandboxMs / 1000))),
  });
}
