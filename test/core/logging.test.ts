import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger, LogLevel } from '../../src/core/logger.js';
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

function capture(level?: LogLevel): { lines: string[]; logger: Logger; logLevel?: LogLevel } {
  const lines: string[] = [];
  const push = (line: string, ...rest: unknown[]) => lines.push([line, ...rest.map(String)].join(' '));
  return {
    lines,
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
    const { lines, ...options } = capture('debug');
    await testClient(options).request(
      retrieveReservation,
      { path: { id: 1 } },
      { headers: { 'x-trace': 'on' } },
    );
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^shop-sdk: GET \/v1\/range\/reservations\/1 -> 503 \(attempt 1, \d+\.\d ms\)$/);
    expect(lines[1]).toMatch(/retry 1 of 2/);
    expect(lines[2]).toMatch(/^shop-sdk: GET \/v1\/range\/reservations\/1 -> 200 \(attempt 2, \d+\.\d ms\)$/);
  });

  it('never logs the API key, even when the server echoes it', async () => {
    server.use(
      http.get(URL_PATTERN, () =>
        HttpResponse.json(failure('SERVER_ERROR', `upstream said Bearer ${API_KEY}`), { status: 500 }),
      ),
    );
    const { lines, ...options } = capture('debug');
    const error = await rejection(testClient(options).request(retrieveReservation, { path: { id: 1 } }));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(API_KEY);
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it('warns when it will not wait for a long Retry-After', async () => {
    server.use(
      http.get(URL_PATTERN, () =>
        HttpResponse.json(failure('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '86400' } }),
      ),
    );
    const { lines, ...options } = capture();
    await rejection(
      testClient({ ...options, logLevel: 'warn' }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(lines).toEqual([
      'shop-sdk: GET /v1/range/reservations/1: not waiting Retry-After 86400 s, over maxRetryAfterSeconds (60)',
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
