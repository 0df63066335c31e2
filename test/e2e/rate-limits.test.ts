// Rate limits (reference sections 5 and 8) on the Established plan: 60 requests a minute per shop, 429
// RATE_LIMITED with Retry-After, the client's wait for it, and the lockout after 30 failed key attempts.
// The sandbox clock is frozen one second before a minute boundary: the wait is 1 sandbox second
// (X-Sandbox-Retry-After), and Retry-After, the wait in real time, is 0: on a frozen clock no real wait helps.
import { describe, expect, it, vi } from 'vitest';
import { type FetchLike, RateLimitError, ShopClient } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { conformanceTest, failure, START, useE2E } from './support/harness.js';

const e2e = useE2E({ plan: 'established', now: '2026-10-01T15:20:59.000Z' });
const PER_MINUTE = 60;

/** Spends what is left of the shop's minute budget; returns the last successful response's figures. */
async function exhaustMinute(shop: ShopClient) {
  let last = await shop.range.classes.list().withResponse();
  while ((last.rateLimit.remaining ?? 0) > 0) last = await shop.range.classes.list().withResponse();
  return last.rateLimit;
}

describe('the per-minute limit (Established: 60 a minute, shared by every key of the shop)', () => {
  it('answers the request over the limit with 429 RATE_LIMITED, Retry-After and X-RateLimit headers', async () => {
    const shop = e2e.client({ maxRetries: 0 });
    const first = await shop.range.classes.list().withResponse();
    expect(first.rateLimit).toMatchObject({
      limit: PER_MINUTE,
      remaining: PER_MINUTE - 1,
      dailyLimit: 10_000,
    });

    // Another key of the same shop draws on the same budget.
    const rateLimit = await exhaustMinute(e2e.client({ maxRetries: 0 }));
    expect(rateLimit.remaining).toBe(0);

    const error = await failure(shop.range.classes.list());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 0 });
    expect((error as RateLimitError).rateLimit).toMatchObject({ limit: PER_MINUTE, remaining: 0 });
    expect((error as RateLimitError).headers.get('Retry-After')).toBe('0');
    expect((error as RateLimitError).headers.get('X-Sandbox-Retry-After')).toBe('1');
  });

  it('retries at once on a frozen clock, and succeeds once the test has moved the clock to the next window', async () => {
    const attempts: { status: number; at: number }[] = [];
    // The sandbox's clock is frozen: move it on by the sandbox wait; Retry-After 0 lets the client retry now.
    const fetchWithTime: FetchLike = async (url, init) => {
      const response = await e2e.recorder.fetch(url, init);
      attempts.push({ status: response.status, at: performance.now() });
      if (response.status === 429) {
        e2e.sandbox.clock.advance(Number(response.headers.get('X-Sandbox-Retry-After')) * 1000);
      }
      return response;
    };
    const shop = e2e.client({ fetch: fetchWithTime });

    const page = await shop.range.classes.list().withResponse();

    expect(attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
    expect(page.rateLimit.remaining).toBe(PER_MINUTE - 1);
  });

  it('raises a Retry-After longer than maxRetryAfterSeconds at once instead of waiting (a real clock)', async () => {
    // A real clock gives Retry-After in real seconds. Start of a fresh minute: once spent, the wait is ~60 s.
    const sandbox = createSandbox({ now: '2026-10-01T15:23:00.000Z', clock: 'real', plan: 'established' });
    const server = await sandbox.listen();
    try {
      const client = (options: { maxRetries?: number; maxRetryAfterSeconds?: number }) =>
        new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url, logLevel: 'off', ...options });
      await exhaustMinute(client({ maxRetries: 0 }));
      const statuses: number[] = [];
      const shop = new ShopClient({
        apiKey: sandbox.createKey(),
        baseUrl: server.url,
        logLevel: 'off',
        maxRetryAfterSeconds: 5,
        fetch: async (url, init) => {
          const response = await fetch(url, init);
          statuses.push(response.status);
          return response;
        },
      });

      const error = await failure(shop.range.classes.list());

      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).toBeGreaterThan(50);
      expect(statuses).toEqual([429]);
    } finally {
      await server.close();
    }
  });
});

describe('failed key attempts (more than 30 a minute from one IP)', () => {
  it('locks the address out with 429 RATE_LIMITED after 30 failures, and lets it back in a minute later', async () => {
    e2e.sandbox.clock.set('2026-10-01T16:00:00.000Z');
    const from = { headers: { 'X-Forwarded-For': '198.51.100.7' } };
    const intruder = e2e.client({ apiKey: 'sk_test_guess', maxRetries: 0 });
    for (let attempt = 1; attempt <= 30; attempt++) {
      expect(await failure(intruder.me.retrieve(from))).toMatchObject({
        status: 401,
        code: 'INVALID_API_KEY',
      });
    }

    const locked = await failure(intruder.me.retrieve(from));
    expect(locked).toBeInstanceOf(RateLimitError);
    expect(locked).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 0 }); // frozen clock
    expect((locked as RateLimitError).headers.get('X-Sandbox-Retry-After')).toBe('60');
    // The lockout answers before the key is authenticated: no shop budget, so no X-RateLimit headers.
    expect((locked as RateLimitError).headers.get('X-RateLimit-Limit')).toBeNull();
    // Even a good key is refused from that address; other addresses are not affected.
    const honest = e2e.client({ maxRetries: 0 });
    expect(await failure(honest.range.classes.list({}, from))).toMatchObject({ status: 429 });
    await expect(honest.range.classes.list()).resolves.toBeDefined();

    e2e.sandbox.clock.advance('61s');
    await expect(honest.range.classes.list({}, from)).resolves.toBeDefined();
  });
});

describe("the client's throttle against a small budget (createSandbox({ rateLimits }))", () => {
  // The throttle paces by the process's clock; the sandbox counts requests per minute of its own. On fake
  // timers (the throttle's Date and setTimeout), the fetch below sets the sandbox clock SPEED times the fake
  // time gone by, so a fake half second is a sandbox minute. The throttle's 240 a minute is then 2 a sandbox
  // minute, under the shop's 4: every walk of 10 requests spans several sandbox minutes. No wall clock: a
  // loaded machine changes neither the spacing nor the sandbox minute a request lands in.
  const SPEED = 120;
  const LIMIT = 4;
  const WALK = 10;

  /** Settles `work`, moving the fake clock 10 ms at a time while the real sockets get their turns. */
  async function onFakeClock<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const done = work.finally(() => {
      settled = true;
    });
    while (!settled) {
      await vi.advanceTimersByTimeAsync(10);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return done;
  }

  it('walks more requests than the per-minute limit with no 429, where an unthrottled client gets one', async () => {
    const sandbox = createSandbox({ now: START, rateLimits: { perMinute: LIMIT } });
    const server = await sandbox.listen();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const startMs = sandbox.clock.nowMs();
    const fakeStart = Date.now();
    const statuses: number[] = [];
    const fast: FetchLike = async (url, init) => {
      sandbox.clock.set(startMs + (Date.now() - fakeStart) * SPEED);
      const response = await e2e.recorder.fetch(url, init);
      statuses.push(response.status);
      return response;
    };
    const client = (throttled: boolean) =>
      new ShopClient({
        apiKey: sandbox.createKey(),
        baseUrl: server.url,
        fetch: fast,
        logLevel: 'off',
        maxRetries: 0,
        ...(throttled ? { throttle: { requestsPerMinute: 2 * SPEED } } : {}),
      });
    try {
      const throttled = client(true);
      await onFakeClock(
        (async () => {
          for (let request = 0; request < WALK; request++) await throttled.range.classes.list();
        })(),
      );
      expect(statuses).toEqual(Array(WALK).fill(200));
      // The walk spanned more than one sandbox minute, so it did go past the per-minute limit.
      expect(sandbox.clock.nowMs() - startMs).toBeGreaterThan(60_000);

      statuses.length = 0;
      // The same walk without the throttle, the fake clock standing still: 10 requests in one sandbox
      // instant meet the limit.
      const unthrottled = client(false);
      const errors: unknown[] = [];
      for (let request = 0; request < WALK; request++) {
        await unthrottled.range.classes.list().catch((error: unknown) => errors.push(error));
      }
      expect(statuses).toContain(429);
      expect(errors[0]).toBeInstanceOf(RateLimitError);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });
});

conformanceTest(e2e, 1);
