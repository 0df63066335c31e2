// The body size cap holds for bodies without a Content-Length (chunked): the handler stops reading as soon as
// the cap is passed, instead of holding the whole body in memory first.
import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { HALF_DUPLEX } from './server.js';

const SECRET = 'whsec_body_limit_secret';
const CHUNK = 16 * 1024;

/** A body of `total` bytes made on demand, counting what the reader pulled and whether it gave up. */
function countingStream(total: number) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled >= total) return controller.close();
        seen.pulled += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

describe('the web handler reading a body without Content-Length', () => {
  it('stops at the cap and cancels the stream, answering 413, without reading the rest', async () => {
    const maxBodyBytes = 64 * 1024;
    const handler = createWebhookHandler({ secret: SECRET, maxBodyBytes });
    const { stream, seen } = countingStream(8 << 20);
    const response = await handler(
      new Request('http://127.0.0.1/webhooks', { method: 'POST', body: stream, ...HALF_DUPLEX }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { type: 'body_too_large', max_bytes: maxBodyBytes } });
    // One chunk past the cap is what it takes to know the body is over it.
    expect(seen.pulled).toBeLessThanOrEqual(maxBodyBytes + CHUNK);
    expect(seen.cancelled).toBe(true);
  });

  it('reads a body under the cap whole, in many chunks', async () => {
    const handler = createWebhookHandler({ secret: SECRET, maxBodyBytes: 64 * 1024 });
    const { stream, seen } = countingStream(48 * 1024);
    const response = await handler(
      new Request('http://127.0.0.1/webhooks', { method: 'POST', body: stream, ...HALF_DUPLEX }),
    );
    // Read to the end: not a size refusal but a missing signature.
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { reason: 'missing_header' } });
    expect(seen).toEqual({ pulled: 48 * 1024, cancelled: false });
  });
});
