// Issue 32 item 11: maxResponseBytes counts the body as the client holds it, decoded. A gzip body within the
// limit by its Content-Length inflated past it unchecked (the issue measured a 1 MB body inflating to 1 GiB:
// 2.16 GB of memory, then a retried ConnectionError). Over a real server on 127.0.0.1, since what matters
// is what the runtime's fetch inflates and holds.
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../src/core/errors/index.js';
import { type ClientOptions, ShopClient } from '../../src/index.js';
import { RETRY_BACKOFF, type TestOptions } from '../../src/internal/test-hooks.js';
import { useLoopback } from './loopback.js';
import { API_KEY, ok, rejection, reservation, retrieveReservation } from './support.js';

const loopback = useLoopback();
const MB = 1024 * 1024;
/** What the bomb inflates to: a valid envelope, padded with JSON whitespace. */
const INFLATED_MB = 100;

function client(options: { maxResponseBytes?: number } = {}) {
  const all: ClientOptions & TestOptions = {
    apiKey: API_KEY,
    baseUrl: loopback.baseUrl,
    logLevel: 'off',
    [RETRY_BACKOFF]: { baseMs: 1, capMs: 5 },
    ...options,
  };
  return new ShopClient(all);
}

/** `{"status":"ok","data":<reservation>}` with `padMb` MiB of spaces before its closing brace, gzipped. */
async function gzipEnvelope(padMb: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(gzip, 'end');
  const text = JSON.stringify(ok(reservation(1)));
  gzip.write(text.slice(0, -1));
  const spaces = Buffer.alloc(MB, 0x20);
  for (let i = 0; i < padMb; i++) {
    if (!gzip.write(spaces)) await once(gzip, 'drain');
  }
  gzip.end('}');
  await ended;
  return Buffer.concat(chunks);
}

/** Serves `body` as gzip with its exact (compressed) Content-Length. */
function serveGzip(body: Buffer) {
  loopback.handle((_seen, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': String(body.length),
    });
    res.end(body);
  });
}

/** The highest RSS above the start while `work` runs, sampled every 5 ms, in MiB. */
async function peakRssGrowthMb(work: () => Promise<unknown>): Promise<number> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return (peak - start) / MB;
}

describe('a compressed body is held to maxResponseBytes as it inflates (issue 32 item 11)', () => {
  let bomb: Buffer;
  beforeAll(async () => {
    bomb = await gzipEnvelope(INFLATED_MB);
  });

  it(`refuses a ${INFLATED_MB} MB gzip body with a small Content-Length, typed, not retried, memory bounded`, async () => {
    // The bomb is small on the wire: its Content-Length passes the limit, only its inflated size does not.
    expect(bomb.length).toBeLessThan(MB);
    serveGzip(bomb);
    const shop = client({ maxResponseBytes: MB });
    let error: unknown;
    const growth = await peakRssGrowthMb(async () => {
      error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    });
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 200, maxResponseBytes: MB });
    expect((error as Error).message).toMatch(/over maxResponseBytes \(1048576\)/);
    // One attempt: the same request would inflate to the same size.
    expect(loopback.seen).toHaveLength(1);
    // Read no further than the limit: nowhere near the 100 MB the whole body inflates to (held at least
    // twice over, as bytes and as text, when it was read whole).
    expect(growth).toBeLessThan(48);
  });

  it('reads a gzip body that inflates within the limit, as before', async () => {
    const small = await gzipEnvelope(1);
    serveGzip(small);
    const shop = client({ maxResponseBytes: 2 * MB });
    expect((await shop.request(retrieveReservation, { path: { id: 1 } })).id).toBe(1);
  });
});
