/**
 * Resolves once `condition()` holds, checking between turns of the event loop, for tests that must wait on
 * something another request does (a key claimed, a fault taken) instead of sleeping a guessed time. The
 * limit only turns a hang into a clear failure; it is no speed assertion.
 */
export async function until(condition: () => boolean, what: string, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting until ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
