// Over a real socket, for what only the wire shows: resets, slow responses, measured waits, the bytes of the
// query string. A node:http server on 127.0.0.1, no msw.
import { describe, expect, it, vi } from 'vitest';
import { ConnectionError, InternalServerError, TimeoutError } from '../../src/core/errors/index.js';
import { json, useLoopback } from './loopback.js';
import {
  createReservation,
  failure,
  listReservations,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
} from './support.js';

const loopback = useLoopback();
const { seen } = loopback;

describe('over a real socket', () => {
  it('retries after the server resets the connection, then succeeds', async () => {
    loopback.handle((_seen, res, req, index) => {
      if (index === 0) req.socket.resetAndDestroy();
      else json(res, 200, ok(reservation(1)));
    });
    const result = await testClient({ baseUrl: loopback.baseUrl }).request(retrieveReservation, {
      path: { id: 1 },
    });
    expect(result.id).toBe(1);
    expect(seen).toHaveLength(2);
  });

  it('raises ConnectionError when every attempt is reset', async () => {
    loopback.handle((_seen, _res, req) => req.socket.resetAndDestroy());
    const error = await rejection(
      testClient({ baseUrl: loopback.baseUrl, maxRetries: 1 }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(2);
  });

  it('gives up on a slow response after `timeout` with TimeoutError', async () => {
    let answered = false;
    loopback.handle((_seen, res) =>
      setTimeout(() => {
        answered = true;
        json(res, 200, ok(reservation(1)));
      }, 1_500),
    );
    const error = await rejection(
      testClient({ baseUrl: loopback.baseUrl, timeout: 150, maxRetries: 0 }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    // Given up before the server's answer: its 150 ms timer fires before the server's 1.5 s one (timers run
    // in order), so this holds on a loaded machine too.
    expect(answered).toBe(false);
  });

  it('counts a body that stalls after the headers against the same timeout', async () => {
    loopback.handle((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"ok","data":');
      setTimeout(() => res.end(JSON.stringify(reservation(1))), 1_500);
    });
    const error = await rejection(
      testClient({ baseUrl: loopback.baseUrl, timeout: 150, maxRetries: 0 }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('stops reading a body when the caller aborts mid-body, rejecting with the reason and not retrying', async () => {
    let ended = false;
    let headersSent: () => void = () => {};
    const sent = new Promise<void>((resolve) => {
      headersSent = resolve;
    });
    loopback.handle((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"ok","data":');
      headersSent();
      setTimeout(() => {
        ended = true;
        res.end(JSON.stringify(reservation(1)));
      }, 5_000).unref();
    });
    const controller = new AbortController();
    const call = testClient({ baseUrl: loopback.baseUrl }).request(
      retrieveReservation,
      { path: { id: 1 } },
      { signal: controller.signal },
    );
    await sent;
    await new Promise((resolve) => setTimeout(resolve, 50)); // the client is now reading the body
    controller.abort('user left');
    expect(await rejection(call)).toBe('user left');
    expect(ended).toBe(false); // rejected at the abort, not when the body ended
    expect(seen).toHaveLength(1);
  });

  it('waits Retry-After seconds before retrying a 429 (measured at the server)', async () => {
    loopback.handle((_seen, res, _req, index) => {
      if (index === 0) json(res, 429, failure('RATE_LIMITED'), { 'retry-after': '1' });
      else json(res, 200, ok(reservation(1)));
    });
    await testClient({ baseUrl: loopback.baseUrl }).request(retrieveReservation, { path: { id: 1 } });
    expect(seen).toHaveLength(2);
    const waited = (seen[1]?.at ?? 0) - (seen[0]?.at ?? 0);
    // At least the second it was told; that it waits no longer than that is measured on a fake clock, where
    // the machine's load cannot stretch it (retry.test.ts: "retries a 429 after its Retry-After seconds").
    expect(waited).toBeGreaterThanOrEqual(990);
  });

  it('waits until a Retry-After given as an HTTP date (measured at the server)', async () => {
    let until = 0;
    loopback.handle((_seen, res, _req, index) => {
      if (index > 0) return json(res, 200, ok(reservation(1)));
      until = (Math.floor(Date.now() / 1000) + 2) * 1000;
      json(res, 429, failure('RATE_LIMITED'), { 'retry-after': new Date(until).toUTCString() });
    });
    await testClient({ baseUrl: loopback.baseUrl }).request(retrieveReservation, { path: { id: 1 } });
    expect(seen).toHaveLength(2);
    const waited = (seen[1]?.at ?? 0) - (seen[0]?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(990);
    // Not before the date; the date read as the exact wait is checked on fixed clocks (rate-limit.test.ts).
    expect(Date.now()).toBeGreaterThanOrEqual(until - 20);
  });

  it('sends the same Idempotency-Key and body on every attempt of a POST', async () => {
    loopback.handle((_seen, res, req, index) => {
      if (index === 0) req.socket.resetAndDestroy();
      else if (index === 1) json(res, 503, failure('SERVER_ERROR'));
      else json(res, 201, ok(reservation(9)));
    });
    const created = await testClient({ baseUrl: loopback.baseUrl }).request(createReservation, {
      body: { party_size: 3, resource_ids: [7] },
    });
    expect(created.id).toBe(9);
    expect(seen).toHaveLength(3);
    const keys = seen.map((entry) => entry.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.map((entry) => entry.body)).toEqual(Array(3).fill('{"party_size":3,"resource_ids":[7]}'));
  });

  it('walks 10 pages, passing each opaque cursor back verbatim', async () => {
    const cursors = Array.from({ length: 9 }, (_, i) => `c${i}+/=?&#%20é ${'x'.repeat(i)}`);
    loopback.handle((_seen, res, req) => {
      const cursor = new URL(req.url ?? '', loopback.baseUrl).searchParams.get('cursor');
      const page = cursor === null ? 0 : cursors.indexOf(cursor) + 1;
      if (cursor !== null && page === 0) return json(res, 400, failure('VALIDATION_ERROR', 'bad cursor'));
      const data = [reservation(page * 2 + 1), reservation(page * 2 + 2)];
      const next = cursors[page] ?? null;
      json(res, 200, ok(data, { limit: 2, has_more: next !== null, next_cursor: next }));
    });
    const ids = [];
    for await (const item of testClient({ baseUrl: loopback.baseUrl }).list(listReservations, {
      query: { limit: 2 },
    }))
      ids.push(item.id);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(seen).toHaveLength(10);
  });

  it("raises a proxy's HTML 502 as InternalServerError with code null and the page's start, after retrying it", async () => {
    loopback.handle((_seen, res) => {
      res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>');
    });
    const error = await rejection(
      testClient({ baseUrl: loopback.baseUrl }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: null });
    expect((error as Error).message).toContain('<h1>502 Bad Gateway</h1>');
    expect(seen).toHaveLength(3);
  });

  describe('afterResponse hooks', () => {
    it('tee the body for an afterResponse hook only when the hook uses it', async () => {
      loopback.handle((_seen, res) => json(res, 200, ok(reservation(4))));
      const tees = vi.spyOn(Response.prototype, 'clone');
      try {
        const statuses: number[] = [];
        const metrics = testClient({
          baseUrl: loopback.baseUrl,
          hooks: {
            beforeRequest: [() => {}],
            afterResponse: [
              (_request, _options, response) => void statuses.push(response.status),
              (_request, _options, response) =>
                void statuses.push(
                  Number(response.headers.get('content-type')?.includes('json')),
                  response.ok ? 1 : 0,
                ),
              () => {},
            ],
            beforeRetry: [() => {}],
            beforeError: [() => {}],
          },
        });
        expect((await metrics.request(retrieveReservation, { path: { id: 4 } })).id).toBe(4);
        expect(statuses).toEqual([200, 1, 1]);
        expect(tees).not.toHaveBeenCalled();

        const read: unknown[] = [];
        const readers = testClient({
          baseUrl: loopback.baseUrl,
          hooks: {
            afterResponse: [
              () => {},
              async (_request, _options, response) => {
                const reader = (response.body as ReadableStream<Uint8Array>).getReader();
                let text = '';
                for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
                  text += new TextDecoder().decode(chunk.value);
                read.push((JSON.parse(text) as { data: { id: number } }).data.id);
              },
              async (_request, _options, response) =>
                void read.push(response.bodyUsed, await response.text()),
            ],
          },
        });
        expect((await readers.request(retrieveReservation, { path: { id: 4 } })).id).toBe(4);
        expect(read[0]).toBe(4);
        expect(read[1]).toBe(false);
        expect(JSON.parse(read[2] as string)).toMatchObject({ data: { id: 4 } });
        expect(tees).toHaveBeenCalledTimes(2); // one per hook that read, none for the one that did not
      } finally {
        tees.mockRestore();
      }
    });

    it('let an afterResponse hook hand back the response it was given, its body still whole', async () => {
      loopback.handle((_seen, res) => json(res, 200, ok(reservation(6))));
      const shop = testClient({
        baseUrl: loopback.baseUrl,
        hooks: {
          afterResponse: [
            (_request, _options, response) => response,
            async (_request, _options, response) => {
              expect(response).toBeInstanceOf(Response);
              return response;
            },
          ],
        },
      });
      expect((await shop.request(retrieveReservation, { path: { id: 6 } })).id).toBe(6);
    });
  });
});
