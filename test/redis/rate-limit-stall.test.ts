// Issue 20: RedisRateLimitStore after a Redis stall. The store gives up on a command after commandTimeoutMs,
// but node-redis and ioredis keep it queued and send it when Redis answers again: before the fix, each such
// late script reserved a slot nobody used, and a stall under load left the whole shop sending nothing for
// a minute. A redis-server of this test's own is frozen with SIGSTOP (test/setup/redis-server.ts), so no other
// test's server stalls.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitStore } from '../../src/core/rate-limit/rate-limit-store.js';
import { RedisRateLimitStore } from '../../src/core/rate-limit/rate-limit-store-redis.js';
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../setup/redis-server.js';

const INTERVAL = 1_000;
const STALLED_CALLS = 30;

describe.skipIf(!hasRedisServer())('RedisRateLimitStore after a Redis stall', () => {
  let redis: OwnRedis;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    redis = await startOwnRedis();
  });
  afterAll(async () => {
    redis.thaw();
    for (const close of closers) await close().catch(() => {});
    await redis.stop();
  });

  async function clientStore(kind: 'ioredis' | 'node-redis'): Promise<RateLimitStore> {
    const options = { keyPrefix: 'stall:', commandTimeoutMs: 100 };
    if (kind === 'ioredis') {
      const client = new Redis(redis.url, { maxRetriesPerRequest: null });
      client.on('error', () => {});
      closers.push(() => client.quit());
      return new RedisRateLimitStore(client, options);
    }
    const client = createClient({ url: redis.url });
    client.on('error', () => {});
    await client.connect();
    closers.push(() => client.quit());
    return new RedisRateLimitStore(client, options);
  }

  it.each(['ioredis', 'node-redis'] as const)(
    '%s: reservations that timed out during the stall take no slot when Redis resumes',
    async (kind) => {
      const store = await clientStore(kind);
      const key = `shop-${kind}`;
      // One reservation on time: the slot now, the next one an interval on.
      const first = await store.reserve(key, INTERVAL, 600_000);
      expect(first.waitMs).toBe(0);

      redis.freeze();
      const stalled = await Promise.allSettled(
        Array.from({ length: STALLED_CALLS }, () => store.reserve(key, INTERVAL, 600_000)),
      );
      expect(stalled.every((outcome) => outcome.status === 'rejected')).toBe(true);
      expect(String((stalled[0] as PromiseRejectedResult).reason)).toMatch(/did not answer within 100 ms/);
      // A stall that matters lasts longer than the command timeout; this one a second.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      redis.thaw();

      // The queued scripts reach Redis now; let them all run before the next reservation.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await store.reserve(key, INTERVAL, 600_000);
      // Late, they reserved nothing: more than an interval has passed since the first slot, so the next
      // starts at once (with the 30 late reservations counted, it would be 30 intervals away).
      expect(after.waitMs).toBe(0);
    },
  );

  it('a pause sent during the stall does not land late either', async () => {
    const store = await clientStore('ioredis');
    const key = 'shop-pause';
    await store.reserve(key, INTERVAL, 600_000);
    redis.freeze();
    await expect(store.pause(key, 30_000)).rejects.toThrow(/did not answer/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    redis.thaw();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await store.reserve(key, INTERVAL, 600_000);
    expect(after.waitMs).toBeLessThanOrEqual(INTERVAL);
  });
});
