// Zod-free and ky-free: `shop-mgmt/webhooks` may build on this module without loading the HTTP client.

const SHOP_ERROR = Symbol.for('shop-mgmt.error');
/**
 * Each error class's own name, as a static field (a literal, which bundlers that rename classes keep). It lets
 * `instanceof` recognise an error made by another copy of the same class: the ESM and the CJS build loaded
 * side by side in one process, or two bundles.
 */
export const ERROR_CLASS = Symbol.for('shop-mgmt.error-class');

/** The class name `ctor` declares itself, not one inherited from its parent. */
function declaredName(ctor: unknown): unknown {
  return typeof ctor === 'function' && Object.hasOwn(ctor, ERROR_CLASS)
    ? (ctor as unknown as Record<symbol, unknown>)[ERROR_CLASS]
    : undefined;
}

/**
 * The root of every error the SDK throws, so one `catch` branch can tell the SDK's failures from the
 * caller's own. `instanceof` holds across copies of the SDK too (the ESM and CJS builds in one process).
 */
export class ShopError extends Error {
  static readonly [ERROR_CLASS]: string = 'ShopError';
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
  /**
   * True when the server may have applied the call although it failed (an unanswered or 5xx attempt of a
   * POST, PATCH or DELETE, or `IDEMPOTENCY_IN_PROGRESS`): re-drive it with the same `idempotencyKey`, or
   * look the record up, before anything else. False for every GET and when every answer refused the call.
   */
  declare readonly mayHaveBeenApplied?: boolean;

  /**
   * `err instanceof NotFoundError` holds for a NotFoundError of any copy of the SDK (the ESM and the CJS build
   * in one process, two bundles): the prototype chain is checked first, as usual, then the class names each
   * copy's classes declare along the error's chain.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class right of instanceof, often a subclass.
    return isInstance(this, value);
  }
}

/** `instanceof` for the error classes: the prototype chain, then the class names along the value's chain. */
function isInstance(target: object, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(target, value)) return true;
  const wanted = declaredName(target);
  if (wanted === undefined || !isShopError(value)) return false;
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (declaredName(proto.constructor) === wanted) return true;
  }
  return false;
}

/** True when `value` is a {@link ShopError}, even one thrown by another copy of the SDK. */
export function isShopError(value: unknown): value is ShopError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SHOP_ERROR] === true
  );
}
