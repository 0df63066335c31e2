// ky hands every `afterResponse` hook `response.clone()`: a tee of the body, whose two branches both carry
// every chunk from then on, paid per hook and per response even by a hook that only reads the status (a
// metric, a log line). Here the response the SDK receives from fetch gets a `clone` of its own that defers
// the tee: the hook is given a stand-in that answers the status, headers and other metadata from the
// response itself and makes the real clone (the same tee ky would have made) the first time the hook touches
// the body. The SDK reads its own copy after every hook has run, so a clone made by a hook that reads is
// still whole. A hook that never touches the body costs no tee at all.

/** What the SDK's hook wrapper tells a stand-in once its hook has settled (`settleClone` in hooks.ts). */
const SETTLE = Symbol.for('shop-mgmt.settleClone');

/** The members that read or hand out the body: the first use of one makes the real clone. */
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

/** The runtime's own clone (a tee of the body), looked up when used: a polyfill may replace Response later. */
function realClone(response: Response): Response {
  return globalThis.Response.prototype.clone.call(response);
}

function bound(value: unknown, owner: object): unknown {
  return typeof value === 'function' ? value.bind(owner) : value;
}

/** `response.clone()` for an afterResponse hook, with the tee deferred until the body is used. */
function deferredClone(this: Response): Response {
  const original = this;
  let real: Response | undefined;
  let settled = false;
  const settle = (returned: unknown) => {
    // A hook that returns its clone makes it the response the SDK reads, and ky cancels the original: the
    // clone must be real (a tee of a still unread body) before that.
    if (returned === stand) real ??= realClone(original);
    settled = true;
  };
  const stand: Response = new Proxy(Object.create(Response.prototype) as Response, {
    get(_target, key) {
      if (key === SETTLE) return settle;
      if (real === undefined) {
        if (!BODY_MEMBERS.has(key)) return bound(Reflect.get(original, key, original), original);
        // ky cancels the body of a clone its hook did not return: nothing to cancel if none was made.
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

/**
 * Gives `response` (as fetch returned it) a `clone` that defers the tee for afterResponse hooks. A response
 * that is not the runtime's own `Response` (a custom fetch's polyfill) keeps its own `clone`.
 */
export function deferClones(response: Response): Response {
  if (response instanceof Response) {
    Object.defineProperty(response, 'clone', { value: deferredClone, configurable: true, writable: true });
  }
  return response;
}
