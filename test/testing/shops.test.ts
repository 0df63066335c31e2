// Issue 30: a sandbox that is many shops. Over real HTTP on 127.0.0.1: one URL, the shop picked by the key
// (reference section 5), each shop with its own data, rate limit, clock, faults, add-on, webhook endpoints and
// secret; the walker count the fleet's multi-worker test reads.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSandbox,
  createShopsSandbox,
  SandboxUsageError,
  type ShopsSandboxOptions,
} from '../../src/testing/index.js';
import { verifyWebhook } from '../../src/webhooks/verify.js';
import { START } from './helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function served(options: Omit<ShopsSandboxOptions, 'now'> & { now?: string }) {
  const shops = createShopsSandbox({ now: START, ...options });
  const server = await shops.listen();
  closers.push(() => server.close());
  return { shops, url: server.url };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

async function get(
  url: string,
  key: string | null,
): Promise<{ status: number; headers: Headers; json: Json }> {
  const response = await fetch(url, key === null ? {} : { headers: { Authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

/** Reads every page of `path` as one walk, calling `between` after each page but the last. */
async function walk(
  url: string,
  path: string,
  key: string,
  between: () => Promise<void> = async () => {},
): Promise<number> {
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await get(`${url}${path}${cursor ? `&cursor=${cursor}` : ''}`, key);
    expect(page.status).toBe(200);
    pages += 1;
    cursor = page.json.meta.next_cursor;
    if (cursor) await between();
  } while (cursor);
  return pages;
}

describe('createShopsSandbox: many shops behind one URL, told apart by key', () => {
  it("two keys see two shops' own data; a key of no shop gets 401 INVALID_API_KEY", async () => {
    const { shops, url } = await served({ shops: 2 });
    expect(shops.shops.map((shop) => shop.name)).toEqual(['shop-1', 'shop-2']);
    const [one, two] = shops.shops;
    const first = await get(`${url}/v1/range/reservations?limit=5`, one!.apiKey);
    const second = await get(`${url}/v1/range/reservations?limit=5`, two!.apiKey);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.json.data).toHaveLength(5);
    // Seeds 1 and 2: the same single-shop sandboxes, served side by side.
    const alone = (seed: number) => {
      const sandbox = createSandbox({ now: START, seed });
      return sandbox.fetch(`${sandbox.baseUrl}/v1/range/reservations?limit=5`, {
        headers: { Authorization: `Bearer ${sandbox.createKey()}` },
      });
    };
    expect(first.json.data).toEqual((await (await alone(1)).json()).data);
    expect(second.json.data).toEqual((await (await alone(2)).json()).data);
    expect(second.json.data).not.toEqual(first.json.data);

    const unknown = await get(
      `${url}/v1/products`,
      'sk_test_000000000000000000000000000000000000000000000000',
    );
    expect([unknown.status, unknown.json.error.code]).toEqual([401, 'INVALID_API_KEY']);
    const none = await get(`${url}/v1/products`, null);
    expect([none.status, none.json.error.code]).toEqual([401, 'INVALID_API_KEY']);
    const live = await get(`${url}/v1/products`, 'sk_live_000000000000000000000000000000000000000000000000');
    expect([live.status, live.json.error.code]).toEqual([401, 'WRONG_ENVIRONMENT']);
  });

  it('a key made later in one shop (createKey, rollKey) reaches that shop', async () => {
    const { shops, url } = await served({ shops: 2 });
    const two = shops.shop('shop-2');
    const later = two.sandbox.createKey({ permissions: ['range:read'] });
    expect(shops.shopOf(`Bearer ${later}`)?.name).toBe('shop-2');
    const page = await get(`${url}/v1/range/reservations?limit=3`, later);
    const own = await get(`${url}/v1/range/reservations?limit=3`, two.apiKey);
    expect(page.json.data).toEqual(own.json.data);
    const rolled = two.sandbox.rollKey(two.apiKey);
    expect((await get(`${url}/v1/products?limit=1`, rolled)).status).toBe(200);
    expect(() => shops.shop('shop-9')).toThrow(SandboxUsageError);
  });

  it('each shop has its own rate limit: shop A at its limit does not throttle shop B', async () => {
    const { shops, url } = await served({ shops: 2, rateLimits: { perMinute: 3 } });
    const [a, b] = shops.shops;
    for (let call = 0; call < 3; call++) {
      expect((await get(`${url}/v1/locations`, a!.apiKey)).status).toBe(200);
    }
    const limited = await get(`${url}/v1/locations`, a!.apiKey);
    expect([limited.status, limited.json.error.code]).toEqual([429, 'RATE_LIMITED']);
    const other = await get(`${url}/v1/locations`, b!.apiKey);
    expect(other.status).toBe(200);
    expect(other.headers.get('X-RateLimit-Remaining')).toBe('2');
  });

  it('revoke, 500s, a missing Range add-on and a moved clock each stay with their shop', async () => {
    const { shops, url } = await served({ shops: 4 });
    const [revoked, failing, noRange, fine] = shops.shops;
    revoked!.sandbox.revokeKey(revoked!.apiKey);
    failing!.sandbox.faults.next({ status: 500, times: 1000 });
    noRange!.sandbox.setRangeAddon(false);
    fine!.sandbox.clock.advance('2h');

    const answers = async (path: string) =>
      Promise.all(shops.shops.map(async (shop) => (await get(`${url}${path}`, shop.apiKey)).status));
    expect(await answers('/v1/range/resources')).toEqual([401, 500, 402, 200]);
    expect(await answers('/v1/products?limit=1')).toEqual([401, 500, 200, 200]);
    const addon = await get(`${url}/v1/range/resources`, noRange!.apiKey);
    expect(addon.json.error.code).toBe('RANGE_ADDON_REQUIRED');
    expect(fine!.sandbox.clock.now().getTime() - noRange!.sandbox.clock.now().getTime()).toBe(2 * 3_600_000);
  });

  it("delivers each shop's events to its own path, signed with its own secret (the registry's)", async () => {
    const receiver = await startReceiver();
    const { shops, url } = await served({ shops: 3 });
    const ids = shops.addWebhookEndpoints(`${receiver.url}/webhooks/{shop}`);
    expect(Object.keys(ids)).toEqual(['shop-1', 'shop-2', 'shop-3']);
    await shops.shop('shop-1').sandbox.trigger('sale.completed');
    await shops.shop('shop-3').sandbox.trigger('sale.completed');
    await shops.flush();

    const registry = shops.registry();
    expect(registry.map((entry) => [entry.name, entry.baseUrl])).toEqual([
      ['shop-1', url],
      ['shop-2', url],
      ['shop-3', url],
    ]);
    const secretOf = (name: string) => registry.find((entry) => entry.name === name)!.webhookSecrets![0]!;
    expect(new Set(registry.map((entry) => entry.webhookSecrets![0])).size).toBe(3);
    expect(new Set(receiver.received.map((got) => got.path))).toEqual(
      new Set(['/webhooks/shop-1', '/webhooks/shop-3']),
    );
    for (const got of receiver.received) {
      const name = got.path.split('/').at(-1)!;
      const verified = await verifyWebhook({
        body: got.body,
        headers: got.headers as Record<string, string>,
        secret: secretOf(name),
      });
      expect(verified.type).toEqual(expect.any(String));
      const other = name === 'shop-1' ? 'shop-3' : 'shop-1';
      await expect(
        verifyWebhook({
          body: got.body,
          headers: got.headers as Record<string, string>,
          secret: secretOf(other),
        }),
      ).rejects.toThrow();
    }
    // The events are each shop's own: shop-2 recorded none.
    const feed = async (name: string) =>
      (await get(`${url}/v1/events?type=sale.completed`, shops.shop(name).apiKey)).json.data.length;
    expect([await feed('shop-1'), await feed('shop-2'), await feed('shop-3')]).toEqual([1, 0, 1]);
  });
});

describe('walkers: list walks by one key under way at once', () => {
  it('counts 2 for two overlapping walks by one key, and for one-page walks within walkIdleMs', async () => {
    const { shops, url } = await served({ shops: 2, walkIdleMs: 60_000 });
    const [one, two] = shops.shops;
    // Two walks of shop-2 interleaved page by page: the second starts before the first has ended.
    let second: Promise<number> | null = null;
    const first = walk(url, '/v1/products?limit=5', two!.apiKey, async () => {
      second ??= walk(url, '/v1/products?limit=5', two!.apiKey);
    });
    expect(await first).toBeGreaterThan(2);
    expect(await second).toBeGreaterThan(2);
    // Two one-page reads of shop-1's feed, one after the other: each is answered within one turn of the
    // sandbox, so only the time after the last page makes them 2 (two workers reading one feed).
    expect(await walk(url, '/v1/events?limit=200', one!.apiKey)).toBe(1);
    expect(shops.walkers()['shop-1']).toEqual({ now: 1, max: 1 });
    expect(await walk(url, '/v1/events?limit=200', one!.apiKey)).toBe(1);
    expect(shops.walkers()).toEqual({ 'shop-1': { now: 2, max: 2 }, 'shop-2': { now: 2, max: 2 } });
  });

  it('counts 1 for walks further apart than walkIdleMs (one walker reading on an interval)', async () => {
    const { shops, url } = await served({ shops: 1, walkIdleMs: 50 });
    const key = shops.shops[0]!.apiKey;
    for (let read = 0; read < 3; read++) {
      expect(await walk(url, '/v1/products?limit=5', key)).toBeGreaterThan(2);
      await new Promise((wake) => setTimeout(wake, 100));
    }
    expect(shops.walkers()['shop-1']).toEqual({ now: 0, max: 1 });
  });

  it('a walk whose next page is later than walkIdleMs stops counting (a killed walker)', async () => {
    const { shops, url } = await served({ shops: 1, walkIdleMs: 20 });
    const key = shops.shops[0]!.apiKey;
    const first = await get(`${url}/v1/products?limit=5`, key);
    expect(first.json.meta.next_cursor).toEqual(expect.any(String));
    expect(shops.walkers()['shop-1']!.now).toBe(1);
    await new Promise((wake) => setTimeout(wake, 100));
    expect(shops.walkers()['shop-1']!.now).toBe(0);
    await walk(url, '/v1/products?limit=5', key);
    // The killed walk is not counted beside the new one; the new one counts until walkIdleMs after its end.
    expect(shops.walkers()['shop-1']!.max).toBe(1);
    await new Promise((wake) => setTimeout(wake, 100));
    expect(shops.walkers()['shop-1']).toEqual({ now: 0, max: 1 });
  });
});

describe('createShopsSandbox options', () => {
  it('names, seeds and plans per shop; refuses a bad count or a name used twice', () => {
    const shops = createShopsSandbox({
      now: START,
      seed: 10,
      shops: [{ name: 'north' }, { name: 'south', plan: 'enterprise', seed: 99 }],
    });
    expect(shops.registry().map((entry) => [entry.name, entry.plan])).toEqual([
      ['north', 'established'],
      ['south', 'enterprise'],
    ]);
    expect(() => createShopsSandbox({ shops: 0 })).toThrow(SandboxUsageError);
    expect(() => createShopsSandbox({ shops: [{ name: 'a' }, { name: 'A' }] })).toThrow(/used twice/);
    expect(() => createShopsSandbox({ shops: [{ name: 'a/b' }] })).toThrow(/name/);
  });
});

interface Got {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

async function startReceiver(): Promise<{ url: string; received: Got[] }> {
  const received: Got[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200);
      response.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closers.push(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}
