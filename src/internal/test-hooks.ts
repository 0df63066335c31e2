/**
 * Option keys for the SDK's own tests: a symbol is not part of the public surface and cannot be set by
 * accident from JSON configuration. `ClientOptions` does not declare them (they are in no public type): the
 * tests pass `ClientOptions & TestOptions`, and the client reads the keys from there.
 */

/** Back-off timing (`{ baseMs, capMs }`), so retry tests finish in milliseconds instead of seconds. */
export const RETRY_BACKOFF: unique symbol = Symbol.for('shop-mgmt.retryBackoff');

/** Back-off timing of {@link RETRY_BACKOFF}. */
export interface RetryBackoff {
  readonly baseMs: number;
  readonly capMs: number;
}

/** The test-only keys the SDK's own tests add to the options they pass to `new ShopClient()`. */
export interface TestOptions {
  [RETRY_BACKOFF]?: RetryBackoff;
}
