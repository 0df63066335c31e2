// The SDK imports several parts on first use rather than with its entry (ky, p-retry, the validators, the
// throttle, the deferred clones of hooks): each is imported once and shared by every caller, and a failed
// import (a chunk a deploy removed, a network blip in a browser) is forgotten so the next caller tries again.

/** `load`, run once and shared by every caller; a rejected load is forgotten, so the next caller retries. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

/**
 * A module's default export, a function. From the CJS build the import is of a CommonJS chunk, whose
 * namespace's `default` is the exports object: the function is then one `default` further in.
 */
export function defaultFunction<T extends (...args: never[]) => unknown>(module: {
  readonly default: unknown;
}): T {
  const exported = module.default as T | { readonly default: T };
  return typeof exported === 'function' ? exported : exported.default;
}
