import type { ShopApiError } from './api-errors.js';
import type { ErrorCode } from './error-codes.js';
import type { ErrorDetails } from './error-details.js';
import { ERROR_CLASS, ShopError } from './shop-error.js';

/**
 * The call's own arguments were refused before anything was sent: a missing required field, a value of the
 * wrong type, a path id that is not one, an Idempotency-Key over 100 characters. Shaped like the server's
 * 400 so one handler can serve both: `status` is 400, `code` is `VALIDATION_ERROR` and `details` maps each
 * field to messages. It is not a {@link ShopApiError}, though: no response exists, so it has no headers or
 * rate-limit figures, and the SDK never retries it.
 */
export class ParamsValidationError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'ParamsValidationError';
  override readonly name: string = 'ParamsValidationError';
  /** 400: the status the server would answer; nothing was sent. */
  readonly status = 400 as const;
  /** Always `VALIDATION_ERROR`, as the server would answer. */
  readonly code = 'VALIDATION_ERROR' as const;

  constructor(
    /** Each refused field mapped to its messages. */
    readonly details: Record<string, string[]>,
    /** The operation, e.g. `range.reservations.create`, when the refusal belongs to one. */
    override readonly operation: string | null = null,
  ) {
    const fields = Object.entries(details)
      .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
      .join(', ');
    super(`Invalid ${operation ? `parameters for ${operation}` : 'request'}: ${fields}`);
  }

  /** True for `VALIDATION_ERROR`, as on {@link ShopApiError.is}. */
  is<Code extends ErrorCode>(code: Code): this is this & { readonly details: ErrorDetails<Code> } {
    return code === this.code;
  }
}
