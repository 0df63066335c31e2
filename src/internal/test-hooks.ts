/**
 * Option keys for the SDK's own tests: a symbol is not part of the public surface and cannot be set by
 * accident from JSON configuration.
 */

/** Back-off timing (`{ baseMs, capMs }`), so retry tests finish in milliseconds instead of seconds. */
export const RETRY_BACKOFF: unique symbol = Symbol.for('shop-mgmt.retryBackoff');

/** Back-off timing of {@link RETRY_BACKOFF}. */
export interface RetryBackoff {
  readonly baseMs: number;
  readonly capMs: number;
}
