// Zod-free and ky-free on purpose: `shop-mgmt/webhooks` imports this module, and a receiver that only verifies
// deliveries must not load the HTTP client. src/core/errors re-exports these classes.
import { ERROR_CLASS, isShopError, ShopError } from '../core/errors/shop-error.js';

/**
 * Why a delivery was refused:
 * - `missing_header`: no `Service-Signature` header;
 * - `malformed_header`: the header is not `t=<digits>,v1=<hex>[,v1=<hex>...]` (two timestamps, a `t` that is
 *   not digits, no `v1`, too long);
 * - `timestamp_out_of_tolerance`: the signature is right but `t` is too far from the receiver's clock;
 * - `signature_mismatch`: no `v1` is the HMAC of this body under any of the secrets;
 * - `invalid_body`: the body is not the raw body (a parsed object, base64, not UTF-8, empty);
 * - `invalid_payload`: the body is authentic but not an event envelope, or the unsigned delivery headers
 *   disagree with it.
 */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'invalid_body'
  | 'invalid_payload';

/**
 * A webhook delivery failed verification. Branch on `reason`; the message says what to fix and never holds
 * the secret.
 */
export class WebhookVerificationError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'WebhookVerificationError';
  override readonly name: string = 'WebhookVerificationError';

  constructor(
    /** Why the delivery was refused; see {@link WebhookVerificationReason}. */
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

/**
 * The receiver's own setup is wrong (an empty secret, a negative tolerance): thrown when the verifier or
 * handler is set up, never because of what a sender sent, so a handler answers it with a 500, not a 400.
 */
export class WebhookConfigurationError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'WebhookConfigurationError';
  override readonly name: string = 'WebhookConfigurationError';
}

/**
 * Refuses a call made without its options object (plain JavaScript, or `any`), which would otherwise fail
 * on its first property as a bare TypeError.
 */
export function requireOptions(call: string, fields: string, options: unknown): void {
  if (typeof options !== 'object' || options === null) {
    throw new WebhookConfigurationError(`${call}() needs an options object: ${call}({ ${fields} }).`);
  }
}
