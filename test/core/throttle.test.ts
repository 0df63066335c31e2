// The throttle's bounds and its store, in one process: waits capped by maxRetryAfterSeconds, the fuzzed
// header cases of issue 12, a 429 pausing queued calls, a shared MemoryRateLimitStore, a failing store.
// The same across processes over a real Redis: test/redis/shared-rate-limit.test.ts.
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimitError, ShopError, TimeoutError } from '../../src/core/errors/index.js';
import { parseRetryAfter } from '../../src/core/rate-limit/rate-limit.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/core/rate-limit/rate-limit-store.js';
import type { FetchLike } from '../../src/core/transport/transport.js';
import type { Logger } from '../../src/index.js';
import { BASE_URL, failure, ok, rejection, reservation, retrieveReservation, testClient } from './support.js';

afterEach(() => vi.useRealTimers());

const NOW = 1_790_000_000_000;

/** A fetch double that notes when each request arrives and answers with `answer(n)` (n from 1). */
function recordingFetch(answer: (n: number) => Response) {
  const arrivals: number[] = [];
  const fetch: FetchLike = async () => {
    arrivals.push(Date.now());
    return answer(arrivals.length);
  };
  return { arrivals, fetch };
}

const okResponse = (headers: Record<string, string> = {}) => Response.json(ok(reservation(1)), { headers });

describe('a throttle wait is capped by maxRetryAfterSeconds', () => {
  it('fails a call at once, nothing sent, when its fixed-pace slot is further off than the cap', async () => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch(() => okResponse());
    const shop = testClient({ fetch, throttle: { requestsPerMinute: 1 }, maxRetryAfterSeconds: 30 });
    await shop.request(retrieveReservation, { path: { id: 1 } });

    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));

    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ throttled: true, retryAfter: 60, status: 429, code: 'RATE_LIMITED' });
    expect((error as Error).message).toMatch(/60 s away, over maxRetryAfterSeconds \(30\); nothing was sent/);
    expect(arrivals).toEqual([NOW]);
  });

  it('fails with the deadline TimeoutError, nothing sent, when the slot is within the cap but past the deadline', async () => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch(() => okResponse());
    const shop = testClient({ fetch, throttle: { requestsPerMinute: 2 }, maxRetryAfterSeconds: 60 });
    await shop.request(retrieveReservation, { path: { id: 1 } });

    const error = await rejection(
      shop.request(retrieveReservation, { path: { id: 1 } }, { deadline: 5_000 }),
    );

    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ deadline: 5_000 });
    expect((error as Error).message).toBe('Deadline of 5000 ms passed after 0 attempts');
    expect(arrivals).toEqual([NOW]);
  });

  it('waits for a slot within the cap', async () => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch(() => okResponse());
    const shop = testClient({ fetch, throttle: { requestsPerMinute: 2 }, maxRetryAfterSeconds: 30 });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    const second = shop.request(retrieveReservation, { path: { id: 1 } });
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await second).id).toBe(1);
    expect(arrivals).toEqual([NOW, NOW + 30_000]);
  });

  it('leaves a refused slot free: the call after a refusal gets the slot the refused one would have had', async () => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch(() => okResponse());
    const shop = testClient({ fetch, throttle: { requestsPerMinute: 1 }, maxRetryAfterSeconds: 59 });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    await vi.advanceTimersByTimeAsync(60_000);
    await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(arrivals).toEqual([NOW, NOW + 60_000]);
  });
});

describe("fuzzed answers (issue 12): 'auto' never leaves a call pending", () => {
  const spent = (reset: number) => ({
    'X-RateLimit-Limit': '60',
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(reset),
  });

  it.each([
    ['an hour away', NOW / 1000 + 3_600],
    ['in milliseconds (thousands of years away)', NOW + 30_000],
  ])('after Remaining: 0 with Reset %s, the next call fails at once over a short cap', async (_, reset) => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch(() => okResponse(spent(reset)));
    const shop = testClient({ fetch, throttle: 'auto', maxRetryAfterSeconds: 5 });
    await shop.request(retrieveReservation, { path: { id: 1 } });

    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));

    // The reset as the header gives it, up to a day; one further off is a misread: one window refused.
    expect(error).toMatchObject({
      name: 'RateLimitError',
      throttled: true,
      retryAfter: reset === NOW + 30_000 ? 60 : 3_600,
    });
    expect(arrivals).toEqual([NOW]);
  });

  it('after Remaining: 0 with Reset an hour away, the next call fails at once under the default cap (issue 20)', async () => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch(() => okResponse(spent(NOW / 1000 + 3_600)));
    const shop = testClient({ fetch, throttle: 'auto' });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    const started = Date.now();
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    // No timer ran: the wait past maxRetryAfterSeconds (60) is refused before any sleep.
    expect(Date.now()).toBe(started);
    expect(error).toMatchObject({ name: 'RateLimitError', throttled: true, retryAfter: 3_600 });
    expect(arrivals).toEqual([NOW]);
  });

  // Issue 32 item 10: each of these held the second call a whole window (60 s) under the default cap.
  it.each([
    ['Remaining: 0, Reset in milliseconds', spent(NOW + 30_000)],
    ['Remaining: 0, Reset 99999999999999', spent(99_999_999_999_999)],
    [
      'Limit: 0, Remaining: 0, Reset in milliseconds',
      { 'X-RateLimit-Limit': '0', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(NOW + 5_000) },
    ],
    ['Remaining: 0, Reset unreadable', { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': 'soon' }],
    ['Remaining: 0, no Reset', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0' }],
    ['Remaining: 0, Reset two days past', spent(NOW / 1000 - 172_800)],
  ])('after %s, the next call fails at once under the default cap (issue 32)', async (_, headers) => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch(() => okResponse(headers));
    const shop = testClient({ fetch, throttle: 'auto' });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    // No timer ran: refused before any sleep, typed, naming the header it could not use.
    expect(Date.now()).toBe(NOW);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ throttled: true, retryAfter: 60, code: 'RATE_LIMITED' });
    expect((error as Error).message).toMatch(/X-RateLimit-Reset.*nothing was sent/);
    expect(arrivals).toEqual([NOW]);
  });

  it('after an unusable reset, calls go again once a window has passed', async () => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch((n) => okResponse(n === 1 ? spent(NOW + 30_000) : {}));
    const shop = testClient({ fetch, throttle: 'auto' });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await rejection(shop.request(retrieveReservation, { path: { id: 1 } }))).toMatchObject({
      throttled: true,
      retryAfter: 30,
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await shop.request(retrieveReservation, { path: { id: 1 } })).id).toBe(1);
    expect(arrivals).toEqual([NOW, NOW + 60_000]);
  });

  it.each([
    ['30 digits', '9'.repeat(30)],
    ['400 digits (Number() reads Infinity)', '9'.repeat(400)],
  ])('a Retry-After of %s is a finite retryAfter and fails at once', async (_, value) => {
    expect(parseRetryAfter(new Headers({ 'retry-after': value }))).toBe(Number.MAX_SAFE_INTEGER);
    const { arrivals, fetch } = recordingFetch(() =>
      Response.json(failure('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': value } }),
    );
    const error = await rejection(
      testClient({ fetch, throttle: { requestsPerMinute: 600 } }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(error).toMatchObject({ name: 'RateLimitError', throttled: false });
    expect(Number.isFinite((error as RateLimitError).retryAfter)).toBe(true);
    expect(arrivals).toHaveLength(1);
  });
});

describe('a 429 with Retry-After pauses the shop', () => {
  it('holds every queued and later call of the client until the time given', async () => {
    vi.useFakeTimers({ now: NOW });
    const { arrivals, fetch } = recordingFetch((n) =>
      n === 1
        ? Response.json(failure('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '5' } })
        : okResponse(),
    );
    const shop = testClient({ fetch, throttle: { requestsPerMinute: 600 }, maxRetries: 0 });
    const calls = [1, 2, 3].map((id) =>
      shop.request(retrieveReservation, { path: { id } }).then(
        () => 'ok',
        (error: unknown) => (error as Error).name,
      ),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    // Without the pause the queued calls would have gone at +100 ms and +200 ms.
    expect(await Promise.all(calls)).toEqual(['RateLimitError', 'ok', 'ok']);
    expect(arrivals).toEqual([NOW, NOW + 5_000, NOW + 5_100]);
  });

  it('pauses every client that shares the MemoryRateLimitStore and key, and no other key', async () => {
    vi.useFakeTimers({ now: NOW });
    const store = new MemoryRateLimitStore();
    const limited = recordingFetch(() =>
      Response.json(failure('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '3' } }),
    );
    const sibling = recordingFetch(() => okResponse());
    const otherShop = recordingFetch(() => okResponse());
    const pace = (key: string) => ({ requestsPerMinute: 600, store, key });
    await rejection(
      testClient({ fetch: limited.fetch, throttle: pace('shop-1'), maxRetries: 0 }).request(
        retrieveReservation,
        { path: { id: 1 } },
      ),
    );
    const siblingCall = testClient({ fetch: sibling.fetch, throttle: pace('shop-1') }).request(
      retrieveReservation,
      { path: { id: 1 } },
    );
    const otherCall = testClient({ fetch: otherShop.fetch, throttle: pace('shop-2') }).request(
      retrieveReservation,
      { path: { id: 1 } },
    );
    await vi.advanceTimersByTimeAsync(5_000);
    await Promise.all([siblingCall, otherCall]);
    expect(sibling.arrivals).toEqual([NOW + 3_000]);
    expect(otherShop.arrivals).toEqual([NOW]);
  });
});

describe('a shared MemoryRateLimitStore', () => {
  it('paces two clients of one shop together', async () => {
    vi.useFakeTimers({ now: NOW });
    const store = new MemoryRateLimitStore();
    const { arrivals, fetch } = recordingFetch(() => okResponse());
    const clients = [1, 2].map(() =>
      testClient({ fetch, throttle: { requestsPerMinute: 60, store, key: 'shop-7' } }),
    );
    const calls = [0, 1, 0, 1].map((i) => clients[i]!.request(retrieveReservation, { path: { id: 1 } }));
    await vi.advanceTimersByTimeAsync(4_000);
    await Promise.all(calls);
    expect(arrivals).toEqual([NOW, NOW + 1_000, NOW + 2_000, NOW + 3_000]);
  });
});

describe('a failing store', () => {
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (message) => warnings.push(message),
    error: () => {},
  };

  it('paces locally, warns once, and never fails a call', async () => {
    vi.useFakeTimers({ now: NOW });
    warnings.length = 0;
    let reservations = 0;
    const broken: RateLimitStore = {
      reserve: async () => {
        reservations += 1;
        throw new TypeError('connection lost');
      },
      pause: async () => {
        throw new TypeError('connection lost');
      },
    };
    const { arrivals, fetch } = recordingFetch(() => okResponse());
    const shop = testClient({
      fetch,
      logger,
      logLevel: 'warn',
      throttle: { requestsPerMinute: 60, store: broken, key: 'shop-9' },
    });
    for (let call = 0; call < 3; call++) {
      const sent = shop.request(retrieveReservation, { path: { id: 1 } });
      await vi.advanceTimersByTimeAsync(1_000);
      await sent;
    }
    expect(arrivals).toEqual([NOW, NOW + 1_000, NOW + 2_000]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /rate-limit store failed \(connection lost\); pacing "shop-9" in this process/,
    );
    // Set aside for two seconds after failing: asked at 0 and at +2 s, not on every call.
    expect(reservations).toBe(2);
  });
});

describe('a shared store that fails (issue 20)', () => {
  it('each client paces alone at the share it had, so together they stay near the limit', async () => {
    vi.useFakeTimers({ now: NOW });
    const memory = new MemoryRateLimitStore();
    let down = false;
    const store: RateLimitStore = {
      reserve: (...args) => (down ? Promise.reject(new Error('Redis stalled')) : memory.reserve(...args)),
      pause: (...args) => (down ? Promise.reject(new Error('Redis stalled')) : memory.pause(...args)),
    };
    const { arrivals, fetch } = recordingFetch(() => okResponse());
    // Two processes of one shop, 60 a minute between them: each gets every other slot, one each 2 s.
    const clients = [0, 1].map(() =>
      testClient({ fetch, logLevel: 'off', throttle: { requestsPerMinute: 60, store, key: 'shop-1' } }),
    );
    // The first call of each loads ky and the schemas (real I/O, which fake time does not wait for).
    for (const shop of clients) {
      const first = shop.request(retrieveReservation, { path: { id: 1 } });
      await vi.advanceTimersByTimeAsync(1_000);
      await first;
    }
    let running = true;
    const loops = clients.map(async (shop) => {
      while (running) await shop.request(retrieveReservation, { path: { id: 1 } });
    });
    await vi.advanceTimersByTimeAsync(20_000);
    const shared = arrivals.length;
    down = true;
    await vi.advanceTimersByTimeAsync(30_000);
    running = false;
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(loops);
    const alone = arrivals.filter((at) => at >= NOW + 20_000 && at < NOW + 50_000).length;
    expect(shared).toBeGreaterThanOrEqual(20);
    // 30 s at the shop's 60 a minute is 30 requests; pacing alone at the whole rate, two clients sent 60.
    expect(alone).toBeLessThanOrEqual(33);
    expect(alone).toBeGreaterThanOrEqual(25);
  });
});

describe('throttle options', () => {
  it.each([
    [{ requestsPerMinute: 60, store: {} }, /throttle.store must be a rate-limit store/],
    [{ requestsPerMinute: 60, key: '' }, /throttle.key must be a non-empty string/],
    [{ requestsPerMinute: 60, key: 42 }, /throttle.key must be a non-empty string/],
  ])('refuses %j at construction', (throttle, message) => {
    expect(() => testClient({ throttle: throttle as never })).toThrow(ShopError);
    expect(() => testClient({ throttle: throttle as never })).toThrow(message);
  });
});

describe('MemoryRateLimitStore', () => {
  it('confirms a held slot, but gives up one missed by more than an interval for a slot in the schedule', async () => {
    vi.useFakeTimers({ now: NOW });
    const store = new MemoryRateLimitStore();
    const first = await store.reserve('shop', 1_000, 60_000);
    const start = first.slot!;
    const second = await store.reserve('shop', 1_000, 60_000);
    expect(second).toEqual({ waitMs: 1_000, slot: start + 1_000 });
    vi.advanceTimersByTime(1_500);
    expect(await store.reserve('shop', 1_000, 60_000, second.slot)).toEqual({
      waitMs: 0,
      slot: start + 1_000,
    });
    // Back 2.5 s after its slot: sent now it would bunch with the starts after it, so it queues again.
    vi.advanceTimersByTime(2_000);
    expect(await store.reserve('shop', 1_000, 60_000, first.slot)).toEqual({
      waitMs: 0,
      slot: start + 3_500,
    });
    expect(await store.reserve('shop', 1_000, 60_000)).toEqual({ waitMs: 1_000, slot: start + 4_500 });
  });
});

describe("fuzzed rate-limit headers over HTTP (issue 20): 'auto' never waits past the cap", () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('after any Limit/Remaining/Reset, the next call starts within maxRetryAfterSeconds or fails at once', async () => {
    const tally = { runs: 0, hangs: 0, refusedAtOnce: 0, waited: 0, untyped: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          limit: fc.integer({ min: 1, max: 600 }),
          remaining: fc.integer({ min: 0, max: 3 }),
          // From two minutes past to ten days ahead, in seconds; or a reset misread in milliseconds.
          resetIn: fc.oneof(fc.integer({ min: -120, max: 864_000 }), fc.constant(Number.NaN)),
          cap: fc.integer({ min: 0, max: 120 }),
        }),
        async ({ limit, remaining, resetIn, cap }) => {
          vi.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
          try {
            const reset = Number.isNaN(resetIn) ? NOW + 30_000 : Math.floor(NOW / 1000) + resetIn;
            const arrivals: number[] = [];
            server.resetHandlers(
              http.get(`${BASE_URL}/v1/range/reservations/1`, () => {
                arrivals.push(Date.now());
                return HttpResponse.json(ok(reservation(1)), {
                  headers: {
                    'X-RateLimit-Limit': String(limit),
                    'X-RateLimit-Remaining': String(remaining),
                    'X-RateLimit-Reset': String(reset),
                  },
                });
              }),
            );
            const shop = testClient({ throttle: 'auto', maxRetryAfterSeconds: cap });
            await shop.request(retrieveReservation, { path: { id: 1 } });
            const started = Date.now();
            let settled: 'ok' | unknown;
            const next = shop.request(retrieveReservation, { path: { id: 1 } }).then(
              () => {
                settled = 'ok';
              },
              (error: unknown) => {
                settled = error;
              },
            );
            await vi.advanceTimersByTimeAsync(0);
            const atOnce = settled !== undefined;
            await vi.advanceTimersByTimeAsync(cap * 1000 + 1);
            await next.catch(() => {});
            tally.runs++;
            // Nothing left until a reset further off than the cap (and within a day, beyond which it is a
            // misread): waiting is a hang, however short the throttle makes it; the call must fail at once.
            // Past a day (or in milliseconds), the reset is a misread: refused at once too (issue 32).
            const mustRefuse = remaining === 0 && (Number.isNaN(resetIn) || resetIn > cap + 1);
            if (mustRefuse && settled === 'ok') tally.hangs++;
            if (settled === undefined) tally.hangs++;
            else if (settled === 'ok') {
              tally.waited++;
              expect((arrivals.at(-1) ?? Number.POSITIVE_INFINITY) - started).toBeLessThanOrEqual(cap * 1000);
            } else {
              if (!(settled instanceof RateLimitError)) tally.untyped++;
              expect(settled).toMatchObject({ name: 'RateLimitError', throttled: true });
              expect(atOnce).toBe(true);
              tally.refusedAtOnce++;
            }
            expect(settled).not.toBeUndefined();
          } finally {
            vi.useRealTimers();
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(tally).toMatchObject({ hangs: 0, untyped: 0 });
    expect(tally.refusedAtOnce).toBeGreaterThan(10);
    expect(tally.waited).toBeGreaterThan(10);
  });
});

describe("hostile rate-limit headers over HTTP (issue 32): 'auto' settles every next call promptly", () => {
  const server = setupServer();
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    // A failed call loads the retry loop (p-retry) once per process, a real import no fake timer covers:
    // loaded here, a refusal below settles within the same turn of the fake clock.
    server.resetHandlers(
      http.get(`${BASE_URL}/v1/range/reservations/1`, () =>
        HttpResponse.json(failure('NOT_FOUND'), { status: 404 }),
      ),
    );
    await rejection(testClient().request(retrieveReservation, { path: { id: 1 } }));
  });
  afterAll(() => server.close());

  /** The default maxRetryAfterSeconds: no throttle wait of a call may be longer. */
  const CAP_MS = 60_000;
  const NOW_S = NOW / 1000;
  /** What a broken proxy or server may put in an X-RateLimit-* header, or no header at all (undefined). */
  const hostile = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('', ' ', 'soon', 'NaN', 'Infinity', '-Infinity', '1e308', '-0', '0x10', '9'.repeat(400)),
    fc.constantFrom('99999999999999', String(NOW), String(NOW + 30_000), String(NOW_S), '0', '-1'),
    fc.integer({ min: -200_000, max: 200_000 }).map((offset) => String(NOW_S + offset)),
    fc.integer({ min: -5, max: 600 }).map(String),
    fc.double({ noNaN: true }).map(String),
    fc.stringMatching(/^[ -~]{0,16}$/),
  );

  it('after any Limit/Remaining/Reset text, the next call fails at once or starts within the cap', async () => {
    const tally = { runs: 0, refusedAtOnce: 0, waited: 0, atOnceOk: 0 };
    await fc.assert(
      fc.asyncProperty(fc.tuple(hostile, hostile, hostile), async ([limit, remaining, reset]) => {
        vi.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
        try {
          const headers: Record<string, string> = {};
          if (limit !== undefined) headers['X-RateLimit-Limit'] = limit;
          if (remaining !== undefined) headers['X-RateLimit-Remaining'] = remaining;
          if (reset !== undefined) headers['X-RateLimit-Reset'] = reset;
          const arrivals: number[] = [];
          server.resetHandlers(
            http.get(`${BASE_URL}/v1/range/reservations/1`, () => {
              arrivals.push(Date.now());
              return HttpResponse.json(ok(reservation(1)), { headers });
            }),
          );
          const shop = testClient({ throttle: 'auto' });
          await shop.request(retrieveReservation, { path: { id: 1 } });
          let settled: 'ok' | unknown;
          const next = shop.request(retrieveReservation, { path: { id: 1 } }).then(
            () => {
              settled = 'ok';
            },
            (error: unknown) => {
              settled = error;
            },
          );
          await vi.advanceTimersByTimeAsync(0);
          const atOnce = settled !== undefined;
          await vi.advanceTimersByTimeAsync(CAP_MS + 1);
          await next;
          tally.runs++;
          // Nothing left (as the header reads) and a reset no clock can use: refused at once, never waited.
          // (An unreadable Remaining, -Infinity included, reads as no header: the call goes at once.)
          const left = remaining === undefined || remaining.trim() === '' ? Number.NaN : Number(remaining);
          const resetS = reset === undefined || reset.trim() === '' ? Number.NaN : Number(reset);
          const unusable = !(Math.abs(resetS * 1000 - NOW) <= 86_400_000);
          if (Number.isFinite(left) && left <= 0 && unusable) {
            expect(atOnce).toBe(true);
            expect(settled).toBeInstanceOf(RateLimitError);
          }
          expect(settled).not.toBeUndefined();
          if (settled === 'ok') {
            if (atOnce) tally.atOnceOk++;
            else tally.waited++;
            expect(arrivals).toHaveLength(2);
            expect(arrivals[1]! - NOW).toBeLessThanOrEqual(CAP_MS);
          } else {
            expect(settled).toBeInstanceOf(RateLimitError);
            expect(settled).toMatchObject({ throttled: true });
            expect(atOnce).toBe(true);
            expect(arrivals).toHaveLength(1);
            tally.refusedAtOnce++;
          }
        } finally {
          vi.useRealTimers();
        }
      }),
      { numRuns: 150 },
    );
    expect(tally.runs).toBe(150);
    expect(tally.refusedAtOnce).toBeGreaterThan(5);
    expect(tally.atOnceOk).toBeGreaterThan(5);
  });
});

describe('a wall clock stepped back (NTP, a resumed VM) does not stall the throttle', () => {
  it('keeps pacing at its interval when Date jumps an hour back between two calls', async () => {
    // Only Date is faked: the step moves the wall clock, not the timers or the monotonic clock.
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    const { arrivals, fetch } = recordingFetch(() => okResponse());
    const shop = testClient({ fetch, throttle: { requestsPerMinute: 1_200 }, maxRetryAfterSeconds: 30 });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    vi.setSystemTime(NOW - 3_600_000);
    const started = performance.now();
    await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(arrivals).toHaveLength(2);
    // The second call waited at most about its 50 ms slot, not the hour of the step (nor failed over the cap).
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('keeps a shared MemoryRateLimitStore schedule on the monotonic clock', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    const store = new MemoryRateLimitStore();
    await store.reserve('shop', 1_000, 60_000);
    vi.setSystemTime(NOW - 3_600_000);
    const next = await store.reserve('shop', 1_000, 60_000);
    expect(next.slot).not.toBeNull();
    expect(next.waitMs).toBeLessThanOrEqual(1_000);
  });
});
