import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_DEDUPE_TTL_SECONDS, type DedupeStore, MemoryDedupeStore } from '../../src/webhooks/index.js';
import { RedisDedupeStore } from '../../src/webhooks/redis.js';

const redisUrl = inject('redisUrl');

describe('DEFAULT_DEDUPE_TTL_SECONDS', () => {
  it('outlives the sender retry schedule: 9 attempts over about 37 hours', () => {
    // Reference section 6: retries after 1 min, 5 min, 30 min, 2 h, 5 h, then every 10 h (9 attempts in all).
    const gapsMinutes = [1, 5, 30, 120, 300, 600, 600, 600];
    const lastRetrySeconds = gapsMinutes.reduce((sum, gap) => sum + gap, 0) * 60;
    expect(lastRetrySeconds / 3600).toBeCloseTo(37.6, 1);
    expect(DEFAULT_DEDUPE_TTL_SECONDS).toBeGreaterThan(lastRetrySeconds);
  });
});

const TOKEN = expect.stringMatching(/.+/);

describe('MemoryDedupeStore', () => {
  it('claims an id once, with a token, until released with that token', async () => {
    const store = new MemoryDedupeStore();
    const token = await store.claim('evt_1', 60);
    expect(token).toEqual(TOKEN);
    expect(await store.claim('evt_1', 60)).toBe(false);
    expect(await store.claim('evt_2', 60)).toEqual(TOKEN);
    await store.release('evt_1', token as string);
    expect(await store.claim('evt_1', 60)).toEqual(TOKEN);
  });

  it('releases only its own claim: a release after the claim expired leaves the next holder alone', async () => {
    let now = 1_000_000;
    const store = new MemoryDedupeStore({ now: () => now });
    const first = await store.claim('evt_1', 10);
    now += 10_000; // the first handler is still busy when its claim runs out
    const second = await store.claim('evt_1', 10);
    expect(second).toEqual(TOKEN);
    expect(second).not.toBe(first);
    await store.release('evt_1', first as string);
    expect(await store.claim('evt_1', 10)).toBe(false);
    await store.release('evt_1', second as string);
    expect(await store.claim('evt_1', 10)).toEqual(TOKEN);
  });

  it('releases whatever holds the id when given no token, as stores without tokens did', async () => {
    const store = new MemoryDedupeStore();
    await store.claim('evt_1', 60);
    await store.release('evt_1');
    expect(await store.claim('evt_1', 60)).toEqual(TOKEN);
  });

  it('forgets an id when its TTL has passed', async () => {
    let now = 1_000_000;
    const store = new MemoryDedupeStore({ now: () => now });
    expect(await store.claim('evt_1', 10)).toEqual(TOKEN);
    now += 9_999;
    expect(await store.claim('evt_1', 10)).toBe(false);
    now += 1;
    expect(await store.claim('evt_1', 10)).toEqual(TOKEN);
  });

  it('stays within maxEntries, forgetting the oldest claims first', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) expect(await store.claim(id, 60)).toEqual(TOKEN);
    expect(store.size).toBe(3);
    expect(await store.claim('a', 60)).toEqual(TOKEN);
    expect(await store.claim('d', 60)).toBe(false);
  });

  it('sweeps expired ids as new ones are claimed', async () => {
    let now = 0;
    const store = new MemoryDedupeStore({ now: () => now });
    for (let i = 0; i < 50; i++) await store.claim(`old_${i}`, 1);
    now += 2_000;
    for (let i = 0; i < 10; i++) await store.claim(`new_${i}`, 1);
    expect(store.size).toBeLessThan(60);
  });
});

interface SharedStores {
  stores: DedupeStore[];
  /** Seconds left on the id's key in Redis. */
  ttl(id: string): Promise<number>;
  /** Lets the id's claim run out now, as Redis does when its TTL passes. */
  expire(id: string): Promise<unknown>;
}

function sharedStoreContract(name: string, makeStores: () => Promise<SharedStores>) {
  describe(name, () => {
    let stores: DedupeStore[];
    let ttl: SharedStores['ttl'];
    let expire: SharedStores['expire'];
    beforeAll(async () => {
      ({ stores, ttl, expire } = await makeStores());
    });
    const newId = () => `evt_${Math.random().toString(36).slice(2)}`;

    it('claims an id once across two clients, sets its TTL, and releases it with its token', async () => {
      const [a, b] = stores as [DedupeStore, DedupeStore];
      const id = newId();
      const token = await a.claim(id, 120);
      expect(token).toEqual(TOKEN);
      expect(await b.claim(id, 120)).toBe(false);
      const seconds = await ttl(id);
      expect(seconds).toBeGreaterThan(110);
      expect(seconds).toBeLessThanOrEqual(120);
      await a.release(id, token as string);
      expect(await b.claim(id, 120)).toEqual(TOKEN);
    });

    it('releases only its own claim: a release after the claim expired leaves the next holder alone', async () => {
      const [a, b] = stores as [DedupeStore, DedupeStore];
      const id = newId();
      const first = await a.claim(id, 120);
      await expire(id); // the first handler is still busy when its claim runs out
      const second = await b.claim(id, 120);
      expect(second).toEqual(TOKEN);
      expect(second).not.toBe(first);
      await a.release(id, first as string);
      expect(await a.claim(id, 120)).toBe(false);
      await b.release(id, second as string);
      expect(await a.claim(id, 120)).toEqual(TOKEN);
    });

    it('releases whatever holds the id when given no token, as stores without tokens did', async () => {
      const [a, b] = stores as [DedupeStore, DedupeStore];
      const id = newId();
      await a.claim(id, 120);
      await b.release(id);
      expect(await b.claim(id, 120)).toEqual(TOKEN);
    });

    it('gives one claim to exactly one of many concurrent claimers', async () => {
      const id = newId();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => stores[i % stores.length]!.claim(id, 60)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}

describe.skipIf(!redisUrl)(
  redisUrl
    ? 'RedisDedupeStore over a real redis-server'
    : 'RedisDedupeStore: SKIPPED, no redis-server on this machine',
  () => {
    const closers: (() => Promise<unknown>)[] = [];
    afterAll(async () => {
      for (const close of closers) await close();
    });

    sharedStoreContract('with node-redis clients', async () => {
      const clients = await Promise.all([
        createClient({ url: redisUrl! }).connect(),
        createClient({ url: redisUrl! }).connect(),
      ]);
      for (const client of clients) closers.push(() => client.quit());
      return {
        stores: clients.map((client) => new RedisDedupeStore(client, { keyPrefix: 'test:node-redis:' })),
        ttl: (id) => clients[0]!.ttl(`test:node-redis:${id}`),
        expire: (id) => clients[0]!.del(`test:node-redis:${id}`),
      };
    });

    sharedStoreContract('with ioredis clients', async () => {
      const clients = [new Redis(redisUrl!), new Redis(redisUrl!)];
      for (const client of clients) closers.push(() => client.quit());
      return {
        stores: clients.map((client) => new RedisDedupeStore(client, { keyPrefix: 'test:ioredis:' })),
        ttl: (id) => clients[0]!.ttl(`test:ioredis:${id}`),
        expire: (id) => clients[0]!.del(`test:ioredis:${id}`),
      };
    });

    sharedStoreContract('with a node-redis and an ioredis client sharing keys', async () => {
      const nodeRedis = await createClient({ url: redisUrl!, RESP: 3 }).connect();
      const ioredis = new Redis(redisUrl!);
      closers.push(
        () => nodeRedis.quit(),
        () => ioredis.quit(),
      );
      return {
        stores: [new RedisDedupeStore(nodeRedis), new RedisDedupeStore(ioredis)],
        ttl: (id) => ioredis.ttl(`shop-mgmt:webhook-event:${id}`),
        expire: (id) => nodeRedis.del(`shop-mgmt:webhook-event:${id}`),
      };
    });
  },
);

describe('RedisDedupeStore without a server', () => {
  it('refuses something that is not a Redis client', () => {
    expect(() => new RedisDedupeStore({} as never)).toThrow(/node-redis or ioredis/);
  });

  // A claim about CI alone: elsewhere it is reported skipped, never passed without checking anything.
  it.runIf(Boolean(process.env.CI))('is never skipped in CI', () => {
    expect(redisUrl, 'CI must run the Redis tests against a real redis-server').not.toBeNull();
  });
});
