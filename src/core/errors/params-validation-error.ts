import type { ShopApiError } from './api-errors.js';
import type { ErrorCode } from './error-codes.js';
import type { ErrorDetails } from './error-details.js';
import { ERROR_CLASS, ShopError } from './shop-error.js';

/**
 * The call's own arguments were refused before anything was sent. Shaped like the server's 400
 * (`VALIDATION_ERROR`, `details` by field) but not a {@link ShopApiError}: no response, never retried.
 */
export class ParamsValidationError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'ParamsValidationError';
  override readonly name: string = 'ParamsValidationError';
  /** 400, as the server would answer. */
  readonly status = 400 as const;
  readonly code = 'VALIDATION_ERROR' as const;

  constructor(
    /** Each refused field mapped to its messages. */
    readonly details: Record<string, string[]>,
    /** The operation, when the refusal belongs to one. */
    override readonly operation: string | null = null,
  ) {
    const fields = Object.entries(details)
      .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
      .join(', ');
    super(`Invalid ${operation ? `parameters for ${operation}` : 'request'}: ${fields}`);
  }

  /** True for `VALIDATION_ERROR`. */
  is<Code extends ErrorCode>(code: Code): this is this & { readonly details: ErrorDetails<Code> } {
    return code === this.code;
  }
}
