import { delay, HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ShopClient } from '../../src/client.js';
import type { Operation } from '../../src/core/api/operation.js';
import {
  ConflictError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  ShopApiError,
  TimeoutError,
} from '../../src/core/errors/index.js';
import type { Logger } from '../../src/core/observe/logger.js';
import { backoffDelay, type RetryPolicy, retryDelay } from '../../src/core/transport/retry.js';
import {
  BASE_URL,
  failure,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  updateLocation,
  useMswServer,
} from './support.js';

const server = useMswServer();
const URL_PATTERN = `${BASE_URL}/v1/range/reservations/:id`;

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Answers with `responses` in turn (the last one repeats) and counts the requests. */
function sequence(...responses: Array<() => Response | Promise<Response>>): { count: number } {
  const counter = { count: 0 };
  server.use(
    http.get(URL_PATTERN, () => {
      const next = responses[Math.min(counter.count, responses.length - 1)];
      counter.count++;
      return next ? next() : HttpResponse.json(ok(reservation(1)));
    }),
  );
  return counter;
}

const success = () => HttpResponse.json(ok(reservation(1)));
const apiError =
  (status: number, code: string, headers: Record<string, string> = {}) =>
  () =>
    HttpResponse.json(failure(code), { status, headers });
const retrieve = (shop = testClient(), options = {}) =>
  shop.request(retrieveReservation, { path: { id: 1 } }, options);

describe('retries', () => {
  it.each([500, 502, 503, 504])('retries a %i and returns the success that follows', async (status) => {
    const counter = sequence(apiError(status, 'SERVER_ERROR'), apiError(status, 'SERVER_ERROR'), success);
    expect((await retrieve()).id).toBe(1);
    expect(counter.count).toBe(3);
  });

  it('stops after maxRetries and raises the last error', async () => {
    const counter = sequence(apiError(503, 'SERVER_ERROR'));
    expect(await rejection(retrieve())).toBeInstanceOf(InternalServerError);
    expect(counter.count).toBe(3);
  });

  it('takes maxRetries per call', async () => {
    const counter = sequence(apiError(503, 'SERVER_ERROR'));
    await rejection(retrieve(testClient({ maxRetries: 5 }), { maxRetries: 0 }));
    expect(counter.count).toBe(1);
  });

  it.each([
    [400, 'VALIDATION_ERROR'],
    [401, 'INVALID_API_KEY'],
    [403, 'INSUFFICIENT_SCOPE'],
    [404, 'NOT_FOUND'],
    [409, 'INVALID_STATE'],
    [422, 'CONSTRAINT_VIOLATION'],
    [501, 'NOT_IMPLEMENTED'],
  ])('does not retry a %i %s', async (status, code) => {
    const counter = sequence(apiError(status, code), success);
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(ShopApiError);
    expect(counter.count).toBe(1);
  });

  it('backs off and retries 409 IDEMPOTENCY_IN_PROGRESS', async () => {
    const counter = sequence(apiError(409, 'IDEMPOTENCY_IN_PROGRESS'), success);
    expect((await retrieve()).id).toBe(1);
    expect(counter.count).toBe(2);
  });

  it('retries a 429 after its Retry-After seconds, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const counter = sequence(apiError(429, 'RATE_LIMITED', { 'retry-after': '3' }), success);
    const call = retrieve();
    await vi.advanceTimersByTimeAsync(2_990);
    expect(counter.count).toBe(1);
    await vi.advanceTimersByTimeAsync(20);
    expect((await call).id).toBe(1);
    expect(counter.count).toBe(2);
  });

  it('waits a 503 Retry-After within maxRetryAfterSeconds, and backs off instead past it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const counter = sequence(apiError(503, 'SERVER_ERROR', { 'retry-after': '4' }), success);
    const call = retrieve();
    await vi.advanceTimersByTimeAsync(3_990);
    expect(counter.count).toBe(1);
    await vi.advanceTimersByTimeAsync(20);
    expect((await call).id).toBe(1);

    const past = sequence(apiError(503, 'SERVER_ERROR', { 'retry-after': '3600' }), success);
    const backedOff = retrieve();
    await vi.advanceTimersByTimeAsync(10); // the test client's back-off is at most 5 ms
    expect((await backedOff).id).toBe(1);
    expect(past.count).toBe(2);
  });

  it('does not wait for a Retry-After over maxRetryAfterSeconds: raises RateLimitError with retryAfter', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const counter = sequence(apiError(429, 'RATE_LIMITED', { 'retry-after': '3600' }), success);
    let error: unknown;
    const call = rejection(retrieve(testClient({ maxRetryAfterSeconds: 60 }))).then((reason) => {
      error = reason;
    });
    // Refused within 10 ms of the (fake) clock: no wait of 60 s or 3600 s was begun.
    await vi.advanceTimersByTimeAsync(10);
    await call;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(3600);
    expect(counter.count).toBe(1);
  });

  it('retries a connection failure, then raises ConnectionError when it persists', async () => {
    const flaky = sequence(() => HttpResponse.error(), success);
    expect((await retrieve()).id).toBe(1);
    expect(flaky.count).toBe(2);

    const down = sequence(() => HttpResponse.error());
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(down.count).toBe(3);
  });

  it('raises TimeoutError when an attempt exceeds timeout, and retries it', async () => {
    const counter = sequence(async () => {
      await delay(1_000);
      return success();
    });
    const error = await rejection(retrieve(testClient({ timeout: 50, maxRetries: 1 })));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as TimeoutError).timeout).toBe(50);
    expect(counter.count).toBe(2);
  });

  it('takes timeout per call', async () => {
    sequence(async () => {
      await delay(1_000);
      return success();
    });
    const error = await rejection(retrieve(testClient({ timeout: 60_000 }), { timeout: 30, maxRetries: 0 }));
    expect(error).toBeInstanceOf(TimeoutError);
  });
});

describe('retries by method', () => {
  const deleteReservation = {
    ...retrieveReservation,
    id: 'range.reservations.delete',
    method: 'DELETE',
    result: z.unknown(),
  } satisfies Operation;

  /** Answers every method on the two paths with `responses` in turn and counts the requests. */
  function anyMethod(...responses: Array<() => Response>): { count: number } {
    const counter = { count: 0 };
    server.use(
      http.all(`${BASE_URL}/v1/*`, () => {
        const next = responses[Math.min(counter.count, responses.length - 1)];
        counter.count++;
        return next ? next() : HttpResponse.json(ok({ id: 1 }));
      }),
    );
    return counter;
  }

  it('retries a DELETE like a GET: deleting twice leaves the same state', async () => {
    const counter = anyMethod(apiError(503, 'SERVER_ERROR'), () => HttpResponse.error(), success);
    await testClient().request(deleteReservation, { path: { id: 1 } });
    expect(counter.count).toBe(3);
  });

  /** Records each PATCH body that reached the server, answering with `responses` in turn. */
  function patches(...responses: Array<() => Response | Promise<Response>>): string[] {
    const bodies: string[] = [];
    server.use(
      http.patch(`${BASE_URL}/v1/locations/:id`, async ({ request }) => {
        bodies.push(await request.text());
        const next = responses[Math.min(bodies.length - 1, responses.length - 1)];
        return next ? next() : HttpResponse.json(ok({ id: 1 }));
      }),
    );
    return bodies;
  }
  const updatePhone = (shop = testClient()) =>
    shop.request(updateLocation, { path: { id: 1 }, body: { phone: '555-0100' } });

  it.each([
    ['a 500', apiError(500, 'SERVER_ERROR')],
    ['a 502', apiError(502, 'SERVER_ERROR')],
    ['a 503', apiError(503, 'SERVER_ERROR')],
    ['a 504', apiError(504, 'SERVER_ERROR')],
    ['a reset connection', () => HttpResponse.error()],
    ['a 429', apiError(429, 'RATE_LIMITED', { 'retry-after': '0' })],
  ])(
    'retries a PATCH after %s like a GET: every PATCH sets absolute values, so sending it twice is harmless',
    async (_name, fail) => {
      const bodies = patches(fail, () => HttpResponse.json(ok({ id: 1 })));
      expect((await updatePhone()).id).toBe(1);
      expect(bodies).toEqual(['{"phone":"555-0100"}', '{"phone":"555-0100"}']);
    },
  );

  it('retries a PATCH that timed out, and gives up after maxRetries like any call', async () => {
    const slow = patches(async () => {
      await delay(1_000);
      return HttpResponse.json(ok({ id: 1 }));
    });
    expect(await rejection(updatePhone(testClient({ timeout: 30, maxRetries: 1 })))).toBeInstanceOf(
      TimeoutError,
    );
    expect(slow).toHaveLength(2);

    const down = patches(apiError(503, 'SERVER_ERROR'));
    expect(await rejection(updatePhone())).toBeInstanceOf(InternalServerError);
    expect(down).toHaveLength(3);
  });

  it('does not retry a PATCH the server refused (409 FIELD_NOT_WRITABLE), like any other call', async () => {
    const bodies = patches(apiError(409, 'FIELD_NOT_WRITABLE'), () => HttpResponse.json(ok({ id: 1 })));
    expect(await rejection(updatePhone())).toBeInstanceOf(ConflictError);
    expect(bodies).toHaveLength(1);
  });
});

describe('cancelling with a signal', () => {
  it('rejects with the caller abort reason and does not retry', async () => {
    const counter = sequence(async () => {
      await delay(1_000);
      return success();
    });
    const controller = new AbortController();
    const reason = new Error('user went away');
    const call = retrieve(testClient(), { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    expect(await rejection(call)).toBe(reason);
    expect(counter.count).toBe(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const counter = sequence(success);
    const error = await rejection(retrieve(testClient(), { signal: AbortSignal.abort('stop') }));
    expect(error).toBe('stop');
    expect(counter.count).toBe(0);
  });

  it('cuts a back-off wait short', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const counter = sequence(apiError(429, 'RATE_LIMITED', { 'retry-after': '30' }), success);
    const controller = new AbortController();
    let reason: unknown;
    const call = rejection(retrieve(testClient(), { signal: controller.signal })).then((value) => {
      reason = value;
    });
    await vi.advanceTimersByTimeAsync(50);
    expect(reason).toBeUndefined(); // in its 30 s wait
    controller.abort('enough');
    // Ended at the abort: the (fake) clock has not moved toward the 30 s.
    await vi.advanceTimersByTimeAsync(0);
    await call;
    expect(reason).toBe('enough');
    expect(counter.count).toBe(1);
  });
});

describe('back-off', () => {
  const policy: RetryPolicy = {
    maxRetries: 10,
    maxRetryAfterSeconds: 60,
    backoffBaseMs: 500,
    backoffCapMs: 8_000,
  };

  it('is exponential from 0.5 s, capped at 8 s, with full jitter', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const waits = [1, 2, 3, 4, 5, 6].map((retry) => Math.round(backoffDelay(retry, policy)));
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(backoffDelay(3, policy)).toBe(0);
  });

  it('waits Retry-After seconds for a 429, and backs off for one without it', () => {
    const headers = new Headers({ 'retry-after': '7' });
    const limited = new RateLimitError({
      status: 429,
      code: 'RATE_LIMITED',
      message: '',
      details: {},
      headers,
    });
    expect(retryDelay(limited, 1, policy)).toBe(7_000);
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const bare = new RateLimitError({
      status: 429,
      code: 'RATE_LIMITED',
      message: '',
      details: {},
      headers: new Headers(),
    });
    expect(retryDelay(bare, 1, policy)).toBe(250);
    const conflict = new ConflictError({
      status: 409,
      code: 'SESSION_FULL',
      message: '',
      details: {},
      headers,
    });
    expect(retryDelay(conflict, 1, policy)).toBeNull();
  });

  it('uses the 0.5 s base by default (seen through the retry log)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.002);
    const lines: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: (line) => lines.push(line),
      warn: () => {},
      error: () => {},
    };
    sequence(apiError(503, 'SERVER_ERROR'), apiError(503, 'SERVER_ERROR'), success);
    const shop = new ShopClient({
      apiKey: 'sk_test_x',
      baseUrl: BASE_URL,
      logger,
      logLevel: 'info',
    });
    await retrieve(shop);
    expect(lines).toEqual([
      'shop-mgmt: GET /v1/range/reservations/1 failed (HTTP 503); retry 1 of 2 in 1 ms',
      'shop-mgmt: GET /v1/range/reservations/1 failed (HTTP 503); retry 2 of 2 in 2 ms',
    ]);
  });

  it('doubles from 0.5 s up to an 8 s cap by default, seen in the log and at the server', async () => {
    vi.useFakeTimers({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999); // the top of each jitter range
    const arrivals: number[] = [];
    server.use(
      http.get(URL_PATTERN, () => {
        arrivals.push(Date.now());
        return arrivals.length <= 6
          ? HttpResponse.json(failure('SERVER_ERROR'), { status: 503 })
          : HttpResponse.json(ok(reservation(1)));
      }),
    );
    const lines: string[] = [];
    const note = (line: string) => lines.push(line);
    const shop = new ShopClient({
      apiKey: 'sk_test_x',
      baseUrl: BASE_URL,
      maxRetries: 6,
      logger: { debug: note, info: note, warn: note, error: note },
      logLevel: 'info',
    });
    const call = retrieve(shop);
    await vi.advanceTimersByTimeAsync(23_500); // 0.5 + 1 + 2 + 4 + 8 + 8 s
    const waits = [500, 1_000, 2_000, 4_000, 8_000, 8_000];
    expect(lines).toEqual(
      waits.map(
        (wait, i) =>
          `shop-mgmt: GET /v1/range/reservations/1 failed (HTTP 503); retry ${i + 1} of 6 in ${wait} ms`,
      ),
    );
    const gaps = arrivals.slice(1).map((at, i) => at - (arrivals[i] ?? 0));
    for (const [i, gap] of gaps.entries()) {
      expect(gap).toBeGreaterThanOrEqual((waits[i] ?? 0) - 1);
      expect(gap).toBeLessThanOrEqual(waits[i] ?? 0);
    }
    expect((await call).id).toBe(1);
  });
});
