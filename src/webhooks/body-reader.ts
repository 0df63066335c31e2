// Reading a request body under a size cap, shared by the web and Node adapters. A chunked body has no
// Content-Length to refuse up front, so the cap is counted chunk by chunk and the rest is never read.

/** The body passed the cap; the adapters answer 413. */
export const TOO_LARGE: unique symbol = Symbol('body too large');

/** The body did not arrive whole before the deadline; the adapters answer 408 and drop the connection. */
export const TOO_SLOW: unique symbol = Symbol('body too slow');

/** Pulls a body chunk by chunk: a web stream's reader, or a Node request's async iterator. */
export interface ChunkSource {
  next(): Promise<{ readonly done?: boolean | undefined; readonly value?: unknown }>;
  /** Gives up on the rest of the body (`reader.cancel()`, `iterator.return()`). */
  stop(): unknown;
}

const encoder = new TextEncoder();

/**
 * The whole body, or {@link TOO_LARGE} as soon as it passes `maxBodyBytes` (the source is stopped there),
 * or {@link TOO_SLOW} when it has not ended by `deadline` (`Date.now()` ms; the caller stops the source once
 * it answered). Rejects when the source fails (the client hung up mid-body).
 */
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
        // The read still pending fails or ends when the caller stops the source.
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
    // Not awaited: the answer does not wait on the client; a failing cancel changes nothing for it.
    const stopped = source.stop();
    if (stopped instanceof Promise) stopped.catch(() => undefined);
  } catch {
    // Already closed or errored: nothing left to stop.
  }
}
