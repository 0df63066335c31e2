// A request body under a size cap, counted chunk by chunk (a chunked body has no Content-Length).

/** The body passed the cap; the adapters answer 413. */
export const TOO_LARGE: unique symbol = Symbol('body too large');

/** The body did not arrive before the deadline; 408 and the connection dropped. */
export const TOO_SLOW: unique symbol = Symbol('body too slow');

/** A web stream's reader, or a Node request's async iterator. */
export interface ChunkSource {
  next(): Promise<{ readonly done?: boolean | undefined; readonly value?: unknown }>;
  /** Gives up on the rest of the body. */
  stop(): unknown;
}

const encoder = new TextEncoder();

/** The whole body, {@link TOO_LARGE} past `maxBodyBytes`, or {@link TOO_SLOW} at `deadline`. */
export async function readCapped(
  source: ChunkSource,
  maxBodyBytes: number,
  deadline = Number.POSITIVE_INFINITY,
): Promise<Uint8Array | typeof TOO_LARGE | typeof TOO_SLOW> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow =
    deadline === Number.POSITIVE_INFINITY
      ? undefined
      : new Promise<typeof TOO_SLOW>((resolve) => {
          timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), TOO_SLOW);
        });
  try {
    return await readAll();
  } finally {
    clearTimeout(timer);
  }

  async function readAll(): Promise<Uint8Array | typeof TOO_LARGE | typeof TOO_SLOW> {
    for (;;) {
      const pending = source.next();
      const next = slow ? await Promise.race([pending, slow]) : await pending;
      if (next === TOO_SLOW) {
        // The pending read ends when the caller stops the source.
        pending.catch(() => undefined);
        return TOO_SLOW;
      }
      const { done, value } = next;
      if (done) break;
      const bytes = typeof value === 'string' ? encoder.encode(value) : value;
      if (!(bytes instanceof Uint8Array))
        throw new Error('The request body stream gave something not bytes.');
      length += bytes.length;
      if (length > maxBodyBytes) {
        stop(source);
        return TOO_LARGE;
      }
      chunks.push(bytes);
    }
    if (chunks.length === 1) return chunks[0]!;
    const body = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.length;
    }
    return body;
  }
}

/** Gives up on the rest of a body (after a 413 or a 408); never throws. */
export function stop(source: ChunkSource): void {
  try {
    // Not awaited: the answer does not wait on the client.
    const stopped = source.stop();
    if (stopped instanceof Promise) stopped.catch(() => undefined);
  } catch {
    // Already closed.
  }
}
