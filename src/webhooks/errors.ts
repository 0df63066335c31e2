// Zod-free and ky-free: a receiver that only verifies must not load the HTTP client.
import { ERROR_CLASS, isShopError, ShopError } from '../core/errors/shop-error.js';

/** Why a delivery was refused. */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'invalid_body'
  | 'invalid_payload';

/** A delivery failed verification; branch on `reason`. The message never holds the secret. */
export class WebhookVerificationError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'WebhookVerificationError';
  override readonly name: string = 'WebhookVerificationError';

  constructor(
    /** Why the delivery was refused. */
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** True when `error` is a {@link WebhookVerificationError}, even one from another copy of the SDK. */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return isShopError(error) && error.name === 'WebhookVerificationError' && 'reason' in error;
}

/** The receiver's own setup is wrong (empty secret, negative tolerance): a 500, never a 400. */
export class WebhookConfigurationError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'WebhookConfigurationError';
  override readonly name: string = 'WebhookConfigurationError';
}

/** Refuses a call without its options object, which would fail as a bare TypeError. */
export function requireOptions(call: string, fields: string, options: unknown): void {
  if (typeof options !== 'object' || options === null) {
    throw new WebhookConfigurationError(`${call}() needs an options object: ${call}({ ${fields} }).`);
  }
}
