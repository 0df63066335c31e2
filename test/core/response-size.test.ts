// Issue 20: maxResponseBytes over the wire (a real server on 127.0.0.1: what matters is how much of a body
// crosses the socket and is held). A 300 MB answer must fail at once with a typed error, not be buffered
// (the issue measured 1.96 GB for one) and not be retried (it measured 3 x 600 MB downloaded).
import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError, ShopError } from '../../src/core/errors/index.js';
import { type ClientOptions, ShopClient } from '../../src/index.js';
import { RETRY_BACKOFF, type TestOptions } from '../../src/internal/test-hooks.js';
import { json, useLoopback } from './loopback.js';
import { API_KEY, listReservations, ok, rejection, reservation, retrieveReservation } from './support.js';

const loopback = useLoopback();
const MB = 1024 * 1024;

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

/**
 * Streams `totalBytes` of a JSON page in 64 kB chunks, as fast as the socket drains, without a
 * Content-Length (chunked); records how many bytes the socket accepted before the client hung up.
 */
function streamHugePage(totalBytes: number, written: { bytes: number; closed: boolean }) {
  loopback.handle((_seen, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('{"status":"ok","meta":{"has_more":false,"next_cursor":null},"data":[');
    res.on('close', () => {
      written.closed = true;
    });
    const pump = () => {
      while (written.bytes < totalBytes && !res.destroyed) {
        written.bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end(']}');
    };
    pump();
  });
}

describe('maxResponseBytes', () => {
  it('a 300 MB chunked page fails with ResponseTooLargeError, once, never buffered whole', async () => {
    const written = { bytes: 0, closed: false };
    streamHugePage(300 * MB, written);
    const before = process.memoryUsage().rss;
    const error = await rejection(client().list(listReservations));
    const grown = process.memoryUsage().rss - before;

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(ShopError);
    expect(error).toMatchObject({ status: 200, maxResponseBytes: 16 * MB, attempts: 1 });
    // Not retried: one request reached the server.
    expect(loopback.seen).toHaveLength(1);
    await expect.poll(() => written.closed).toBe(true);
    // The client stopped reading just past the default 16 MiB; the socket and kernel buffers hold a little more.
    expect(written.bytes).toBeLessThan(64 * MB);
    expect(grown).toBeLessThan(200 * MB);
  });

  it('a declared Content-Length over the limit fails before the body is read', async () => {
    const written = { bytes: 0, closed: false };
    loopback.handle((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * MB) });
      res.on('close', () => {
        written.closed = true;
      });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (written.bytes < 300 * MB && !res.destroyed) {
          written.bytes += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    const error = await rejection(
      client({ maxResponseBytes: MB }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/is 314572800 bytes, over maxResponseBytes \(1048576\)/);
    expect(loopback.seen).toHaveLength(1);
    await expect.poll(() => written.closed).toBe(true);
    expect(written.bytes).toBeLessThan(32 * MB);
  });

  it('an error answer over the limit is refused the same way, not retried as a 5xx', async () => {
    loopback.handle((_seen, res) =>
      json(res, 503, { status: 'error', error: { code: 'X', message: 'y'.repeat(4096) } }),
    );
    const error = await rejection(
      client({ maxResponseBytes: 1024 }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 503 });
    expect(loopback.seen).toHaveLength(1);
  });

  it('a body at the limit is read, chunked or with a Content-Length', async () => {
    const body = JSON.stringify(ok(reservation(1)));
    loopback.handle((seen, res) => {
      if (seen.url.endsWith('/1')) json(res, 200, ok(reservation(1)));
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(body.slice(0, 10));
        res.end(body.slice(10));
      }
    });
    const shop = client({ maxResponseBytes: Buffer.byteLength(body) });
    expect((await shop.request(retrieveReservation, { path: { id: 1 } })).id).toBe(1);
    expect((await shop.request(retrieveReservation, { path: { id: 2 } })).id).toBe(1);
  });

  it('is checked when the client is built', () => {
    for (const bad of [0, -1, 1.5, 512 * MB, Number.NaN]) {
      expect(() => client({ maxResponseBytes: bad })).toThrow(/maxResponseBytes must be a positive integer/);
    }
  });
});
