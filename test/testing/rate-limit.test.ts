import { describe, expect, it } from 'vitest';
import { SandboxUsageError } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';

describe('sandbox rate limits (reference section 8)', () => {
  it('allows 60 requests a minute on Established, then 429 with Retry-After until the window resets', async () => {
    const sandbox = newSandbox({ now: '2026-10-01T15:20:15.000Z' });
    const key = sandbox.createKey();
    const other = sandbox.createKey();
    let last = await call(sandbox, 'GET', '/v1/events', { key });
    expect(last.headers.get('X-RateLimit-Limit')).toBe('60');
    expect(last.headers.get('X-RateLimit-Remaining')).toBe('59');
    expect(last.headers.get('X-RateLimit-Reset')).toBe(String(Date.parse('2026-10-01T15:21:00Z') / 1000));
    expect(last.headers.get('X-RateLimit-Daily-Limit')).toBe('10000');
    expect(last.headers.get('X-RateLimit-Daily-Remaining')).toBe('9999');
    for (let index = 1; index < 60; index++) last = await call(sandbox, 'GET', '/v1/events', { key });
    expect(last.status).toBe(200);
    expect(last.headers.get('X-RateLimit-Remaining')).toBe('0');
    // The budget is the shop's: another key of the same shop is over the limit too.
    const limited = await call(sandbox, 'GET', '/v1/events', { key: other });
    expect([limited.status, limited.json.error.code]).toEqual([429, 'RATE_LIMITED']);
    // The wait in sandbox seconds; in real time none: on a frozen clock waiting moves nothing, so a client
    // retries at once (and meets the 429 again until the test moves the clock).
    expect(limited.headers.get('X-Sandbox-Retry-After')).toBe('45');
    expect(limited.headers.get('Retry-After')).toBe('0');
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0');
    sandbox.clock.advance('45s');
    const next = await call(sandbox, 'GET', '/v1/events', { key });
    expect(next.status).toBe(200);
    expect(next.headers.get('X-RateLimit-Remaining')).toBe('59');
    expect(next.headers.get('X-RateLimit-Daily-Remaining')).toBe('9939');
  });

  it('caps Established at 10,000 a UTC day and resets at midnight', async () => {
    const sandbox = newSandbox({ now: '2026-10-01T00:00:00.000Z' });
    const key = sandbox.createKey();
    for (let minute = 0; minute < 10_000 / 50; minute++) {
      for (let index = 0; index < 50; index++) await call(sandbox, 'GET', '/v1/events?limit=1', { key });
      sandbox.clock.advance('1m');
    }
    const over = await call(sandbox, 'GET', '/v1/events', { key });
    expect([over.status, over.json.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(over.headers.get('X-RateLimit-Daily-Remaining')).toBe('0');
    expect(Number(over.headers.get('X-Sandbox-Retry-After'))).toBe((86_400_000 - 200 * 60_000) / 1000);
    sandbox.clock.set('2026-10-02T00:00:00.000Z');
    expect((await call(sandbox, 'GET', '/v1/events', { key })).status).toBe(200);
  });

  it('allows 600 a minute on Enterprise with no daily headers', async () => {
    const sandbox = newSandbox({ plan: 'enterprise' });
    const key = sandbox.createKey();
    let last = await call(sandbox, 'GET', '/v1/events', { key });
    expect(last.headers.get('X-RateLimit-Limit')).toBe('600');
    expect(last.headers.get('X-RateLimit-Daily-Limit')).toBeNull();
    for (let index = 1; index < 600; index++) last = await call(sandbox, 'GET', '/v1/events', { key });
    expect(last.status).toBe(200);
    expect((await call(sandbox, 'GET', '/v1/events', { key })).status).toBe(429);
  });

  it('takes rateLimits that replace the plan figures, and keeps them across setPlan', async () => {
    const sandbox = newSandbox({ now: '2026-10-01T15:20:50.000Z', rateLimits: { perMinute: 3, perDay: 5 } });
    const key = sandbox.createKey();
    const get = () => call(sandbox, 'GET', '/v1/events', { key });
    let last = await get();
    expect(last.headers.get('X-RateLimit-Limit')).toBe('3');
    expect(last.headers.get('X-RateLimit-Daily-Limit')).toBe('5');
    await get();
    last = await get();
    expect(last.headers.get('X-RateLimit-Remaining')).toBe('0');
    const overMinute = await get();
    expect([overMinute.status, overMinute.headers.get('X-Sandbox-Retry-After')]).toEqual([429, '10']);

    sandbox.clock.advance('10s');
    sandbox.setPlan('enterprise');
    expect((await get()).headers.get('X-RateLimit-Limit')).toBe('3');
    await get();
    const overDay = await get();
    expect(overDay.status).toBe(429);
    expect(overDay.headers.get('X-RateLimit-Daily-Remaining')).toBe('0');
    // The daily window ends at 00:00 UTC: 8 h 39 min from 15:21:00.
    expect(overDay.headers.get('X-Sandbox-Retry-After')).toBe(String(8 * 3600 + 39 * 60));
  });

  it('drops the daily cap with perDay null and keeps the plan figure left unset', async () => {
    const sandbox = newSandbox({ rateLimits: { perDay: null } });
    const first = await call(sandbox, 'GET', '/v1/events', { key: sandbox.createKey() });
    expect(first.headers.get('X-RateLimit-Limit')).toBe('60');
    expect(first.headers.get('X-RateLimit-Daily-Limit')).toBeNull();
  });

  it.each([{ perMinute: 0 }, { perMinute: 1.5 }, { perDay: -1 }, { perMinute: Number.NaN }])(
    'refuses rateLimits %o with a SandboxUsageError',
    (rateLimits) => {
      expect(() => newSandbox({ rateLimits })).toThrow(SandboxUsageError);
    },
  );
});
