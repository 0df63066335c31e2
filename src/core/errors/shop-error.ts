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
}

/** True when `value` is a {@link ShopError}, even one thrown by another copy of the SDK. */
export function isShopError(value: unknown): value is ShopError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SHOP_ERROR] === true
  );
}
