import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimitError } from '../../src/core/errors/index.js';
import { parseRateLimit, parseRetryAfter } from '../../src/core/rate-limit/rate-limit.js';
import { Throttle } from '../../src/core/rate-limit/throttle.js';
import type { FetchLike } from '../../src/core/transport/transport.js';
import {
  BASE_URL,
  createReservation,
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
const ESTABLISHED = {
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': '57',
  'X-RateLimit-Reset': '1790000060',
  'X-RateLimit-Daily-Limit': '10000',
  'X-RateLimit-Daily-Remaining': '9120',
};

afterEach(() => vi.useRealTimers());

describe('rate-limit headers', () => {
  it('are parsed into withResponse().rateLimit, the daily pair included', async () => {
    server.use(http.get(URL_PATTERN, () => HttpResponse.json(ok(reservation(1)), { headers: ESTABLISHED })));
    const { rateLimit } = await testClient()
      .request(retrieveReservation, { path: { id: 1 } })
      .withResponse();
    expect(rateLimit).toEqual({
      limit: 60,
      remaining: 57,
      reset: 1790000060,
      dailyLimit: 10000,
      dailyRemaining: 9120,
    });
  });

  it('are null where the response has none (Enterprise has no daily pair)', async () => {
    server.use(
      http.get(URL_PATTERN, () =>
        HttpResponse.json(ok(reservation(1)), {
          headers: { 'X-RateLimit-Limit': '600', 'X-RateLimit-Remaining': 'n/a' },
        }),
      ),
    );
    const { rateLimit } = await testClient()
      .request(retrieveReservation, { path: { id: 1 } })
      .withResponse();
    expect(rateLimit).toEqual({
      limit: 600,
      remaining: null,
      reset: null,
      dailyLimit: null,
      dailyRemaining: null,
    });
  });

  it('are on errors too, with retryAfter on a RateLimitError', async () => {
    server.use(
      http.get(URL_PATTERN, () =>
        HttpResponse.json(failure('RATE_LIMITED'), {
          status: 429,
          headers: { ...ESTABLISHED, 'X-RateLimit-Daily-Remaining': '0', 'Retry-After': '3600' },
        }),
      ),
    );
    const error = await rejection(testClient().request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfter: 3600, rateLimit: { dailyLimit: 10000, dailyRemaining: 0 } });
  });

  it('parse Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '12' }))).toBe(12);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0' }))).toBe(0);
    const now = Date.parse('2026-10-01T09:00:00Z');
    const at = (value: string) => parseRetryAfter(new Headers({ 'retry-after': value }), now);
    expect(at('Thu, 01 Oct 2026 09:00:30 GMT')).toBe(30); // IMF-fixdate
    expect(at('Thursday, 01-Oct-26 09:00:30 GMT')).toBe(30); // RFC 850
    expect(at('Thu Oct  1 09:00:30 2026')).toBe(30); // asctime, the third form RFC 9110 has recipients accept
    expect(at('Wed, 30 Sep 2026 09:00:00 GMT')).toBe(0); // already past: retry now
    expect(parseRateLimit(new Headers()).limit).toBeNull();
  });

  it.each([
    ['-1', 'a negative number (Date.parse reads it as the year 2001)'],
    ['1.5', 'a fraction'],
    ['+5', 'a signed number'],
    ['1e3', 'an exponent'],
    ['soon', 'a word'],
    ['2026-10-01T09:00:30Z', 'an ISO timestamp'],
    ['Thu, 31 Feb 2026 09:00:30 GMT', 'a date that does not exist'],
    ['Thu, 01 Oct 2026 09:00:30 CET', 'a zone other than GMT'],
  ])('read Retry-After %s as absent: %s', (value) => {
    const now = Date.parse('2026-10-01T09:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': value }), now)).toBeNull();
  });
});

describe('withResponse()', () => {
  it('gives data, the raw response, rateLimit and idempotentReplayed', async () => {
    server.use(
      http.get(URL_PATTERN, () =>
        HttpResponse.json(ok(reservation(3)), { headers: { 'x-request-note': 'hi' } }),
      ),
    );
    const result = await testClient()
      .request(retrieveReservation, { path: { id: 3 } })
      .withResponse();
    expect(result.data).toEqual(reservation(3));
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('x-request-note')).toBe('hi');
    expect(result.idempotentReplayed).toBe(false);
    expect(result.rateLimit.limit).toBeNull();
  });

  it('resolves the same data as awaiting the call', async () => {
    server.use(http.get(URL_PATTERN, () => HttpResponse.json(ok(reservation(3)))));
    const promise = testClient().request(retrieveReservation, { path: { id: 3 } });
    const [data, withResponse] = await Promise.all([promise, promise.withResponse()]);
    expect(withResponse.data).toBe(data);
  });
});

describe('the throttle', () => {
  it('spaces request starts evenly at requestsPerMinute', async () => {
    vi.useFakeTimers({ now: 0 });
    const throttle = new Throttle({ requestsPerMinute: 60 });
    const started: number[] = [];
    const queue = [0, 1, 2].map(async () => {
      await throttle.acquire();
      started.push(Date.now());
    });
    await vi.advanceTimersByTimeAsync(2_500);
    await Promise.all(queue);
    expect(started).toEqual([0, 1_000, 2_000]);
  });

  it("in 'auto' mode spreads what is left of the window and waits for the reset when nothing is", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const throttle = new Throttle('auto');
    await throttle.acquire(); // nothing to wait for before the first response
    throttle.observe(
      new Headers({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': '1020' }),
    );
    throttle.acquire();
    let second = 0;
    void throttle.acquire()?.then(() => {
      second = Date.now();
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(second).toBe(1_000_000 + 2_000);

    throttle.observe(
      new Headers({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1030' }),
    );
    let afterReset = 0;
    void throttle.acquire()?.then(() => {
      afterReset = Date.now();
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(afterReset).toBe(1_030_000);
  });

  it("in 'auto' mode never spaces starts further apart than the minute window, whatever the headers say", async () => {
    vi.useFakeTimers({ now: 0 });
    const throttle = new Throttle('auto');
    // A limit that small would make a 6e9 ms interval, which a timer runs after 1 ms instead.
    throttle.observe(new Headers({ 'x-ratelimit-limit': '0.00001' }));
    throttle.acquire();
    let next = -1;
    void throttle.acquire()?.then(() => {
      next = Date.now();
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(next).toBe(-1);
    await vi.advanceTimersByTimeAsync(1);
    expect(next).toBe(60_000);
  });

  it('sends nothing when the call is aborted just as its throttle slot comes up', async () => {
    vi.useFakeTimers({ now: 0 });
    const sent: string[] = [];
    const fetchDouble: FetchLike = async (input) => {
      const request = new Request(input);
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      return Response.json(ok(reservation(1)), { status: 201 });
    };
    const shop = testClient({ throttle: { requestsPerMinute: 60 }, fetch: fetchDouble });
    await shop.request(retrieveReservation, { path: { id: 1 } }); // takes the slot at 0 s
    const controller = new AbortController();
    const booking = shop.request(
      createReservation,
      { body: { party_size: 2 } },
      { signal: controller.signal },
    );
    const outcome = booking.then(
      () => 'sent',
      (reason: unknown) => reason,
    );
    await vi.advanceTimersByTimeAsync(0); // the booking now waits for its slot, at 1 s
    setTimeout(() => controller.abort('cancelled'), 1_000);
    // Both timers fire in one synchronous step: the abort lands after the wait ends, before the request starts.
    vi.advanceTimersByTime(1_000);
    expect(await outcome).toBe('cancelled');
    expect(sent).toEqual(['GET /v1/range/reservations/1']);
  });

  it('makes a retry wait for a slot of its own, like any request', async () => {
    vi.useFakeTimers({ now: 0 });
    const starts: number[] = [];
    const fetchDouble: FetchLike = async () => {
      starts.push(Date.now());
      return starts.length === 1
        ? Response.json(failure('SERVER_ERROR'), { status: 503 })
        : Response.json(ok(reservation(1)));
    };
    // The test client's back-off is under 5 ms: only the throttle can hold the retry until 50 ms.
    const shop = testClient({ throttle: { requestsPerMinute: 1_200 }, fetch: fetchDouble });
    const call = shop.request(retrieveReservation, { path: { id: 1 } });
    await vi.advanceTimersByTimeAsync(100);
    expect((await call).id).toBe(1);
    expect(starts).toEqual([0, 50]);
  });

  it('paces a client: four concurrent calls at 1200 per minute start 50 ms apart', async () => {
    server.use(http.get(URL_PATTERN, () => HttpResponse.json(ok(reservation(1)))));
    // On a fake clock: each start at its slot to the ms, however loaded the machine.
    vi.useFakeTimers({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const starts: number[] = [];
    const fetchAndNote: FetchLike = (input, init) => {
      starts.push(Date.now());
      return globalThis.fetch(input, init);
    };
    const shop = testClient({ throttle: { requestsPerMinute: 1_200 }, fetch: fetchAndNote });
    const calls = Promise.all([1, 2, 3, 4].map(() => shop.request(retrieveReservation, { path: { id: 1 } })));
    await vi.advanceTimersByTimeAsync(200);
    expect(await calls).toHaveLength(4);
    expect(starts).toEqual([0, 50, 100, 150]);
  });
});

describe("the 'auto' throttle through the client", () => {
  it('holds the next request until X-RateLimit-Reset when a response says none are left', async () => {
    const now = 1_790_000_000_000;
    vi.useFakeTimers({ now, toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const arrivals: number[] = [];
    server.use(
      http.get(URL_PATTERN, () => {
        arrivals.push(Date.now());
        return HttpResponse.json(ok(reservation(1)), {
          headers: {
            'X-RateLimit-Limit': '60',
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': String(now / 1000 + 30),
          },
        });
      }),
    );
    const shop = testClient({ throttle: 'auto' });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(arrivals).toEqual([now]);

    const next = shop.request(retrieveReservation, { path: { id: 1 } });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(arrivals).toEqual([now]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await next).id).toBe(1);
    expect(arrivals).toEqual([now, now + 30_000]);
  });
});
