/** `load`, run once and shared; a rejected load is retried by the next caller. */
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

/** A module's default export, unwrapped once more for a CommonJS chunk. */
export function defaultFunction<T extends (...args: never[]) => unknown>(module: {
  readonly default: unknown;
}): T {
  const exported = module.default as T | { readonly default: T };
  return typeof exported === 'function' ? exported : exported.default;
}
