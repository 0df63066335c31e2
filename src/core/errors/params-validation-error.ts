import type { ShopApiError } from './api-errors.js';
import type { ErrorCode } from './error-codes.js';
import type { ErrorDetails } from './error-details.js';
import { ERROR_CLASS, ShopError } from './shop-error.js';

/** The call's arguments were refused before sending: shaped like a 400 but not a {@link ShopApiError}. */
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
