/** A random UUID v4, from Web Crypto so it works on every runtime the SDK supports. */
export function uuid4(): string {
  return globalThis.crypto.randomUUID();
}
