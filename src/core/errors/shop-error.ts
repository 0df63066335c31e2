// Zod-free and ky-free: `shop-sdk/webhooks` may build on this module without loading the HTTP client.

const SHOP_ERROR = Symbol.for('shop-sdk.error');

/**
 * The root of every error the SDK throws, so one `catch` branch can tell the SDK's failures from the
 * caller's own. Use {@link isShopError} rather than `instanceof` when two copies of the SDK may be loaded.
 */
export class ShopError extends Error {
  // A literal in every class, not `new.target.name`: a bundler that renames classes keeps these.
  override readonly name: string = 'ShopError';
  /** @internal brand read by {@link isShopError} across bundles. */
  readonly [SHOP_ERROR] = true;
  // Recovery data, set by the transport on every error an API call rejects with (undefined elsewhere);
  // `declare`d so an error outside a call carries no such keys.
  /** The call's Idempotency-Key (a POST's, given or generated; null for other methods): re-drive with it. */
  declare readonly idempotencyKey?: string | null;
  /** How many attempts the call made before failing. */
  declare readonly attempts?: number;
  /** The operation that failed, e.g. `range.reservations.create`. */
  declare readonly operation?: string | null;
  /** Milliseconds from the call's start to its failure, waits between retries included. */
  declare readonly elapsedMs?: number;
}

/** True when `value` is a {@link ShopError}, even one thrown by another copy of the SDK. */
export function isShopError(value: unknown): value is ShopError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SHOP_ERROR] === true
  );
}
