/** Option keys for the SDK's own tests: symbols in no public type. */

/** Back-off timing, so retry tests finish in milliseconds. */
export const RETRY_BACKOFF: unique symbol = Symbol.for('shop-mgmt.retryBackoff');

/** Back-off timing of {@link RETRY_BACKOFF}. */
export interface RetryBackoff {
  readonly baseMs: number;
  readonly capMs: number;
}

/** The test-only keys of `new ShopClient()` options. */
export interface TestOptions {
  [RETRY_BACKOFF]?: RetryBackoff;
}
