// ky hands each afterResponse hook a `response.clone()` (a tee). The hook gets a stand-in instead; the real
// clone is made when it first touches the body.

/** Called by `settleClone` (hooks.ts) once the stand-in's hook settled. */
const SETTLE = Symbol.for('shop-mgmt.settleClone');

/** The members that touch the body: the first use makes the real clone. */
const BODY_MEMBERS: ReadonlySet<PropertyKey> = new Set([
  'body',
  'bodyUsed',
  'text',
  'json',
  'arrayBuffer',
  'blob',
  'formData',
  'bytes',
  'clone',
]);

/** The runtime's own clone, looked up when used (a polyfill may replace Response later). */
function realClone(response: Response): Response {
  return globalThis.Response.prototype.clone.call(response);
}

function bound(value: unknown, owner: object): unknown {
  return typeof value === 'function' ? value.bind(owner) : value;
}

function deferredClone(this: Response): Response {
  const original = this;
  let real: Response | undefined;
  let settled = false;
  const settle = (returned: unknown) => {
    // A returned clone replaces the response (ky cancels the original), so it must be real.
    if (returned === stand) real ??= realClone(original);
    settled = true;
  };
  const stand: Response = new Proxy(Object.create(Response.prototype) as Response, {
    get(_target, key) {
      if (key === SETTLE) return settle;
      if (real === undefined) {
        if (!BODY_MEMBERS.has(key)) return bound(Reflect.get(original, key, original), original);
        if (key === 'body' && settled) return null;
        if (key === 'bodyUsed') return false;
        real = realClone(original);
      }
      return bound(Reflect.get(real, key, real), real);
    },
    set(_target, key, value) {
      real ??= realClone(original);
      return Reflect.set(real, key, value, real);
    },
    has(_target, key) {
      return key in original;
    },
  });
  return stand;
}

/** Gives a runtime `Response` a `clone` that defers the tee. */
export function deferClones(response: Response): Response {
  if (response instanceof Response) {
    Object.defineProperty(response, 'clone', { value: deferredClone, configurable: true, writable: true });
  }
  return response;
}
