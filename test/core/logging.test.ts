import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Operation } from '../../src/core/api/operation.js';
import { ConnectionError } from '../../src/core/errors/index.js';
import type { Logger, LogLevel } from '../../src/core/observe/logger.js';
import type { FetchLike } from '../../src/core/transport/transport.js';
import {
  API_KEY,
  BASE_URL,
  failure,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const URL_PATTERN = `${BASE_URL}/v1/range/reservations/:id`;

afterEach(() => vi.unstubAllEnvs());

/** A logger keeping each message in `lines` and the fields object passed after it in `fields`. */
function capture(level?: LogLevel): {
  lines: string[];
  fields: unknown[];
  logger: Logger;
  logLevel?: LogLevel;
} {
  const lines: string[] = [];
  const fields: unknown[] = [];
  const push = (line: string, ...rest: unknown[]) => {
    lines.push(line);
    fields.push(rest[0]);
  };
  return {
    lines,
    fields,
    logger: { debug: push, info: push, warn: push, error: push },
    ...(level ? { logLevel: level } : {}),
  };
}

describe('logging', () => {
  it('logs method, path, status, attempt and duration of every attempt at debug', async () => {
    let calls = 0;
    server.use(
      http.get(URL_PATTERN, () =>
        ++calls === 1
          ? HttpResponse.json(failure('SERVER_ERROR'), { status: 503 })
          : HttpResponse.json(ok(reservation(1))),
      ),
    );
    const { lines, fields, ...options } = capture('debug');
    await testClient(options).request(
      retrieveReservation,
      { path: { id: 1 } },
      { headers: { 'x-trace': 'on' } },
    );
    expect(lines).toHaveLength(3);
    // Structured fields beside each line: the path template, never the filled path.
    const attemptFields = {
      operation: 'range.reservations.retrieve',
      method: 'GET',
      path: '/v1/range/reservations/{id}',
    };
    expect(fields[0]).toEqual({ ...attemptFields, status: 503, attempt: 1, durationMs: expect.any(Number) });
    expect(fields[1]).toEqual({ ...attemptFields, status: 503, attempt: 1, delayMs: expect.any(Number) });
    expect(fields[2]).toEqual({ ...attemptFields, status: 200, attempt: 2, durationMs: expect.any(Number) });
    expect(lines[0]).toMatch(
      /^shop-mgmt: GET \/v1\/range\/reservations\/1 -> 503 \(attempt 1, \d+\.\d ms\)$/,
    );
    expect(lines[1]).toMatch(/retry 1 of 2/);
    expect(lines[2]).toMatch(
      /^shop-mgmt: GET \/v1\/range\/reservations\/1 -> 200 \(attempt 2, \d+\.\d ms\)$/,
    );
  });

  it('never logs the API key, though a path, a connection error and a server message carry it', async () => {
    // Every line below would hold the key if redaction were broken: a caller who put it in a path (a
    // string id), a connection error whose text names it, a server that echoes it.
    const byName = {
      ...retrieveReservation,
      id: 'customers.byHandle',
      path: '/v1/customers/{handle}',
      pathParams: [{ name: 'handle', type: 'string' }],
    } satisfies Operation;
    let calls = 0;
    server.use(
      http.get(`${BASE_URL}/v1/customers/:handle`, () => {
        calls++;
        if (calls === 1)
          return HttpResponse.json(failure('SERVER_ERROR', `upstream said Bearer ${API_KEY}`), {
            status: 500,
          });
        return HttpResponse.json(ok(reservation(1)));
      }),
    );
    let attempts = 0;
    const leakyFetch: FetchLike = (url, init) =>
      ++attempts === 2
        ? Promise.reject(new TypeError(`fetch failed for ${(url as Request).url} with key ${API_KEY}`))
        : globalThis.fetch(url, init);
    const { lines, fields: _fields, ...options } = capture('debug');
    await testClient({ ...options, fetch: leakyFetch }).request(byName, {
      path: { handle: `who-${API_KEY}` },
    });
    expect(lines).toHaveLength(5); // 500, its retry, the connection error, its retry, the 200
    const text = lines.join('\n');
    expect(text).not.toContain(API_KEY);
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(5);
    expect(lines[0]).toMatch(/^shop-mgmt: GET \/v1\/customers\/who-\[redacted\] -> 500/);
  });

  it('keeps the API key out of a ConnectionError whose cause names it', async () => {
    const leakyFetch: FetchLike = (url) =>
      Promise.reject(
        new TypeError(`fetch failed for ${(url as Request).url}: Authorization: Bearer ${API_KEY}`),
      );
    const error = await rejection(
      testClient({ fetch: leakyFetch, maxRetries: 0 }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('Bearer [redacted]');
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it('keeps the API key out of error messages, even when the server echoes it', async () => {
    server.use(
      http.get(URL_PATTERN, () =>
        HttpResponse.json(failure('SERVER_ERROR', `upstream said Bearer ${API_KEY}`), { status: 500 }),
      ),
    );
    const error = await rejection(
      testClient({ maxRetries: 0 }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect((error as Error).message).toContain('upstream said Bearer [redacted]');
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it('warns when it will not wait for a long Retry-After', async () => {
    server.use(
      http.get(URL_PATTERN, () =>
        HttpResponse.json(failure('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '86400' } }),
      ),
    );
    const { lines, fields: _fields, ...options } = capture();
    await rejection(
      testClient({ ...options, logLevel: 'warn' }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(lines).toEqual([
      'shop-mgmt: GET /v1/range/reservations/1: not waiting Retry-After 86400 s, over maxRetryAfterSeconds (60)',
    ]);
  });

  it('logs nothing below the level: warn by default, SHOP_LOG when set, off when asked', async () => {
    server.use(http.get(URL_PATTERN, () => HttpResponse.json(ok(reservation(1)))));
    const quiet = capture();
    await testClient({ logger: quiet.logger, logLevel: undefined }).request(retrieveReservation, {
      path: { id: 1 },
    });
    expect(quiet.lines).toEqual([]);

    vi.stubEnv('SHOP_LOG', 'debug');
    const fromEnv = capture();
    await testClient({ logger: fromEnv.logger, logLevel: undefined }).request(retrieveReservation, {
      path: { id: 1 },
    });
    expect(fromEnv.lines).toHaveLength(1);

    const off = capture('off');
    await testClient(off).request(retrieveReservation, { path: { id: 1 } });
    expect(off.lines).toEqual([]);
  });
});

describe('webhook secrets', () => {
  // A shop's whsec_ secret is not the client's to know, so only its pattern can find it: a server or proxy
  // that quotes one (a webhook endpoint's settings echoed in an error) must not put it in logs or errors.
  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  it('never reach a log line, though a path, a server message and a connection error carry one', async () => {
    const byName = {
      ...retrieveReservation,
      id: 'webhooks.byName',
      path: '/v1/webhooks/{name}',
      pathParams: [{ name: 'name', type: 'string' }],
    } satisfies Operation;
    let calls = 0;
    server.use(
      http.get(`${BASE_URL}/v1/webhooks/:name`, () =>
        ++calls === 1
          ? HttpResponse.json(failure('SERVER_ERROR', `signing with ${SECRET} failed`), { status: 500 })
          : HttpResponse.json(ok(reservation(1))),
      ),
    );
    let attempts = 0;
    const leakyFetch: FetchLike = (url, init) =>
      ++attempts === 2
        ? Promise.reject(new TypeError(`fetch failed: endpoint secret ${SECRET}`))
        : globalThis.fetch(url, init);
    const { lines, fields: _fields, ...options } = capture('debug');
    await testClient({ ...options, fetch: leakyFetch }).request(byName, { path: { name: `hook-${SECRET}` } });
    expect(lines).toHaveLength(5); // 500, its retry, the connection error, its retry, the 200
    expect(lines.join('\n')).not.toContain('whsec_');
    expect(lines[0]).toMatch(/^shop-mgmt: GET \/v1\/webhooks\/hook-\[redacted\] -> 500/);
  });

  it('never reach the message of an API error or a ConnectionError', async () => {
    server.use(
      http.get(URL_PATTERN, () =>
        HttpResponse.json(failure('SERVER_ERROR', `signing with ${SECRET} failed`), { status: 500 }),
      ),
    );
    const apiError = await rejection(
      testClient({ maxRetries: 0 }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect((apiError as Error).message).toBe('500 SERVER_ERROR: signing with [redacted] failed');

    const leakyFetch: FetchLike = () =>
      Promise.reject(new TypeError(`fetch failed: endpoint secret ${SECRET}`));
    const connection = await rejection(
      testClient({ fetch: leakyFetch, maxRetries: 0 }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(connection).toBeInstanceOf(ConnectionError);
    expect((connection as Error).message).toMatch(
      /^Connection error to http:\/\/[^ ]+\/v1\/range\/reservations\/1: fetch failed: endpoint secret \[redacted\]$/,
    );
  });
});
