// ky hands each afterResponse hook `response.clone()`, a tee paid per hook even by one reading the status.
// Here the hook gets a stand-in answering metadata from the response, and the real clone is made the first
// time it touches the body.

/** What the hook wrapper tells a stand-in once its hook settled (`settleClone` in hooks.ts). */
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
    // A returned clone becomes the response the SDK reads (ky cancels the original): it must be real first.
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

/** Gives a runtime `Response` a `clone` that defers the tee; any other response keeps its own. */
export function deferClones(response: Response): Response {
  if (response instanceof Response) {
    Object.defineProperty(response, 'clone', { value: deferredClone, configurable: true, writable: true });
  }
  return response;
}
