// Tests written against the mutants Stryker left alive in the dedupe store and the HMAC backend (issue 35,
// `npm run test:mutation -- --mutate src/webhooks/dedupe.ts`): lease and TTL edges on an exact clock, the
// sweep's bound, which stores count as lease stores, and the Web Crypto key cache.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DedupeStore, hasLeases, MemoryDedupeStore } from '../../src/webhooks/dedupe.js';
import { hmacHex, useHmacBackend } from '../../src/webhooks/hmac.js';
import { WebhookConfigurationError } from '../../src/webhooks/index.js';
import { nodeHmac } from './helpers.js';

function clock(start = 1_000_000) {
  const time = { now: start };
  return { time, now: () => time.now };
}

describe('MemoryDedupeStore edges', () => {
  it('renews a lease until its last millisecond, not at its expiry', async () => {
    const { time, now } = clock();
    const store = new MemoryDedupeStore({ now });
    const token = await store.claim('evt_1', 10);
    expect(token).toEqual(expect.any(String));
    time.now += 9_999;
    expect(await store.renew('evt_1', token as string, 10)).toBe(true);
    time.now += 10_000; // exactly the renewed expiry
    expect(await store.renew('evt_1', token as string, 10)).toBe(false);
    expect(await store.claim('evt_1', 10)).toEqual(expect.any(String));
  });

  it('extends a lease by the seconds asked, from the renewal, for the token holding it only', async () => {
    const { time, now } = clock();
    const store = new MemoryDedupeStore({ now });
    const token = (await store.claim('evt_1', 10)) as string;
    expect(await store.renew('evt_1', 'claim_of_someone_else', 60)).toBe(false);
    time.now += 9_000;
    expect(await store.renew('evt_1', token, 10)).toBe(true);
    time.now += 9_999; // past the first lease, one millisecond short of the renewed one
    expect(await store.claim('evt_1', 10)).toBe(false);
    time.now += 1;
    expect(await store.claim('evt_1', 10)).toEqual(expect.any(String));
  });

  it('keeps an id done for the TTL in seconds, and free from its expiry on', async () => {
    const { time, now } = clock();
    const store = new MemoryDedupeStore({ now });
    const token = await store.claim('evt_1', 30);
    await store.complete('evt_1', token as string, 5);
    time.now += 4_999;
    expect(await store.isDone('evt_1')).toBe(true);
    expect(await store.claim('evt_1', 30)).toBe(false);
    time.now += 1; // exactly the expiry
    expect(await store.isDone('evt_1')).toBe(false);
    expect(await store.claim('evt_1', 30)).toEqual(expect.any(String));
  });

  it('is not done while in progress, and a done id is neither renewed nor released by the old token', async () => {
    const { now } = clock();
    const store = new MemoryDedupeStore({ now });
    const token = (await store.claim('evt_1', 30)) as string;
    expect(await store.isDone('evt_1')).toBe(false);
    await store.complete('evt_1', token, 60);
    expect(await store.renew('evt_1', token, 30)).toBe(false);
    await store.release('evt_1', token);
    expect(await store.isDone('evt_1')).toBe(true);
    // The done mark holds no token a claimer could present: an empty one releases nothing either.
    await store.release('evt_1', '');
    expect(await store.isDone('evt_1')).toBe(true);
  });

  it('gives a different token per claim', async () => {
    const store = new MemoryDedupeStore();
    const tokens = new Set<string>();
    for (const id of ['a', 'b', 'c']) tokens.add((await store.claim(id, 30)) as string);
    expect(tokens.size).toBe(3);
    expect([...tokens].every((token) => token.length > 0)).toBe(true);
  });

  it('sweeps at most 8 expired ids per claim, including one expiring at that very millisecond', async () => {
    const { time, now } = clock();
    const store = new MemoryDedupeStore({ now });
    for (let i = 0; i < 20; i++) await store.claim(`old_${i}`, 1);
    expect(store.size).toBe(20);
    time.now += 1_000; // every old lease ends exactly now
    await store.claim('new_1', 30);
    expect(store.size).toBe(20 - 8 + 1);
    await store.claim('new_2', 30);
    expect(store.size).toBe(20 - 16 + 2);
    await store.claim('new_3', 30);
    expect(store.size).toBe(3);
  });

  it('stops sweeping at the first live id', async () => {
    const { time, now } = clock();
    const store = new MemoryDedupeStore({ now });
    await store.claim('short', 1);
    await store.claim('long', 60);
    await store.claim('short_after', 1);
    time.now += 1_000;
    await store.claim('new', 30);
    // `short` went; `long` stopped the sweep, so `short_after` lingers until a later sweep reaches it.
    expect(store.size).toBe(3);
  });

  it('refuses a maxEntries that is not a whole number of 1 or more, and takes 1', async () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      expect(() => new MemoryDedupeStore({ maxEntries })).toThrow(
        new WebhookConfigurationError('maxEntries must be a whole number, 1 or more.'),
      );
    }
    const one = new MemoryDedupeStore({ maxEntries: 1 });
    await one.claim('a', 30);
    await one.claim('b', 30);
    expect(one.size).toBe(1);
    expect(await one.claim('b', 30)).toBe(false);
    expect(await one.claim('a', 30)).toEqual(expect.any(String));
  });
});

describe('hasLeases', () => {
  const method = () => true;
  const full: DedupeStore = {
    claim: method,
    release: () => {},
    renew: method,
    complete: () => {},
    isDone: method,
  };

  it('is true only for a store with renew, complete and isDone', () => {
    expect(hasLeases(full)).toBe(true);
    expect(hasLeases(new MemoryDedupeStore())).toBe(true);
    const without = (name: 'renew' | 'complete' | 'isDone') => {
      const store: DedupeStore = { ...full };
      delete store[name];
      return hasLeases(store);
    };
    expect([without('renew'), without('complete'), without('isDone')]).toEqual([false, false, false]);
    expect(hasLeases({ claim: method, release: () => {} })).toBe(false);
    expect(hasLeases({ ...full, complete: true } as unknown as DedupeStore)).toBe(false);
  });
});

describe('the Web Crypto key cache', () => {
  beforeAll(() => useHmacBackend('web-crypto'));
  afterAll(() => useHmacBackend('auto'));
  afterEach(() => vi.restoreAllMocks());

  it('imports a secret once, and starts over past 16 secrets', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const secret = (i: number) => `whsec_cache_${i}`;
    const sign = async (i: number) => {
      expect(await hmacHex(secret(i), '1', 'body')).toBe(nodeHmac(secret(i), 1, 'body'));
    };
    await sign(0);
    await sign(0);
    expect(importKey).toHaveBeenCalledTimes(1);
    for (let i = 1; i < 16; i++) await sign(i);
    expect(importKey).toHaveBeenCalledTimes(16);
    await sign(5); // still cached: 16 keys fit
    expect(importKey).toHaveBeenCalledTimes(16);
    await sign(16); // the 17th clears the cache and is kept
    expect(importKey).toHaveBeenCalledTimes(17);
    await sign(16);
    expect(importKey).toHaveBeenCalledTimes(17);
    await sign(0); // forgotten with the others
    expect(importKey).toHaveBeenCalledTimes(18);
  });
});
