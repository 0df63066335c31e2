// Zod- and ky-free: `shop-mgmt/webhooks` builds on it without the HTTP client.

const SHOP_ERROR = Symbol.for('shop-mgmt.error');
/** Each class's own name as a literal, so `instanceof` works across copies of the SDK. */
export const ERROR_CLASS = Symbol.for('shop-mgmt.error-class');

/** The class name `ctor` declares itself, not an inherited one. */
function declaredName(ctor: unknown): unknown {
  return typeof ctor === 'function' && Object.hasOwn(ctor, ERROR_CLASS)
    ? (ctor as unknown as Record<symbol, unknown>)[ERROR_CLASS]
    : undefined;
}

/** The root of every error the SDK throws; `instanceof` holds across copies of the SDK. */
export class ShopError extends Error {
  static readonly [ERROR_CLASS]: string = 'ShopError';
  override readonly name: string = 'ShopError';
  /** @internal brand read by {@link isShopError} across bundles. */
  readonly [SHOP_ERROR] = true;
  // Recovery data, set by the transport on errors of API calls (absent elsewhere).
  /** The call's Idempotency-Key (POST only). */
  declare readonly idempotencyKey?: string | null;
  /** Attempts made. */
  declare readonly attempts?: number;
  declare readonly operation?: string | null;
  /** ms from start to failure, waits included. */
  declare readonly elapsedMs?: number;
  /** The server may have applied the call: re-drive with the same key. */
  declare readonly mayHaveBeenApplied?: boolean;

  /** Checks the prototype chain, then class names (across copies of the SDK). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class tested, often a subclass.
    return isInstance(this, value);
  }
}

function isInstance(target: object, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(target, value)) return true;
  const wanted = declaredName(target);
  if (wanted === undefined || !isShopError(value)) return false;
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (declaredName(proto.constructor) === wanted) return true;
  }
  return false;
}

/** True for a {@link ShopError}, even from another copy of the SDK. */
export function isShopError(value: unknown): value is ShopError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SHOP_ERROR] === true
  );
}
