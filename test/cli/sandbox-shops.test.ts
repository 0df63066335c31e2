// Issue 30: `shop-mgmt sandbox --shops N --shops-file F` as its own process: N shops at one URL told apart by
// key, their registry written for `sync --shops` (mode 0600, loadable), and the control routes the fleet's
// tests drive: revoke one shop's key, make one answer 500s, take one's Range add-on, move one's clock, add
// endpoints per shop, read the walkers.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadShops } from '../../src/sync/fleet/registry.js';
import { verifyWebhook } from '../../src/webhooks/verify.js';
import { cliSuite } from './helpers.js';

const suite = cliSuite('sandbox-shops');

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

async function call(
  url: string,
  key: string,
  method = 'GET',
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const response = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

describe('sandbox --shops', () => {
  it('writes a loadable 0600 registry of N shops at one URL, each key its own shop', async () => {
    const file = join(suite.scratch(), 'shops.json');
    const sandbox = suite.cli.start([
      'sandbox',
      '--json',
      '--port',
      '0',
      '--shops',
      '3',
      '--shops-file',
      file,
      '--clock',
      'frozen',
    ]);
    const ready = await sandbox.until(
      () => sandbox.records().find((record) => record.event === 'ready'),
      30_000,
    );
    expect(ready.shopsFile).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const shops = await loadShops(file);
    expect(shops.map((shop) => [shop.name, shop.baseUrl])).toEqual([
      ['shop-1', ready.url],
      ['shop-2', ready.url],
      ['shop-3', ready.url],
    ]);
    expect(new Set(shops.map((shop) => shop.apiKey())).size).toBe(3);
    const pages = await Promise.all(
      shops.map((shop) => call(`${ready.url}/v1/range/reservations?limit=5`, shop.apiKey())),
    );
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200]);
    expect(pages[0]!.json.data).not.toEqual(pages[1]!.json.data);
    const wrong = await call(`${ready.url}/v1/products`, 'sk_test_nobody');
    expect([wrong.status, wrong.json.error.code]).toEqual([401, 'INVALID_API_KEY']);
    // No key nor secret in the human output of the process.
    for (const shop of shops) expect(sandbox.stderr.join('\n')).not.toContain(shop.apiKey());
    expect(await sandbox.stop()).toBe(0);
  }, 90_000);

  it('control routes revoke, fail, take the add-on from and move the clock of one shop only', async () => {
    const sandbox = suite.cli.start(['sandbox', '--json', '--port', '0', '--shops', '4']);
    const ready = await sandbox.until(
      () => sandbox.records().find((record) => record.event === 'ready'),
      30_000,
    );
    const url = ready.url as string;
    const keys = (ready.shops as { name: string; key: string }[]).map((shop) => shop.key);
    const control = (path: string, body?: unknown, method = 'POST') =>
      call(`${url}/_sandbox/${path}`, keys[3]!, method, body);
    expect((await control('shops/shop-1/revoke-key')).status).toBe(200);
    expect((await control('shops/shop-2/faults', { status: 500 })).status).toBe(200);
    expect((await control('shops/shop-3/range-addon', { enabled: false })).status).toBe(200);
    const before = (await control('shops', undefined, 'GET')).json.shops;
    const moved = await control('shops/shop-4/clock', { advance: '3h' });
    expect(Date.parse(moved.json.now) - Date.parse(before[3].now)).toBeGreaterThanOrEqual(3 * 3_600_000);
    expect(Date.parse(moved.json.now) - Date.parse(before[3].now)).toBeLessThan(3 * 3_600_000 + 600_000);

    const statuses = async (path: string) =>
      (await Promise.all(keys.map((key) => call(`${url}${path}`, key)))).map((page) => page.status);
    expect(await statuses('/v1/range/resources')).toEqual([401, 500, 402, 200]);
    expect(await statuses('/v1/products?limit=1')).toEqual([401, 500, 200, 200]);
    // The shop answering 500s comes back when its faults are cleared.
    expect((await control('shops/shop-2/faults', undefined, 'DELETE')).status).toBe(200);
    expect(await statuses('/v1/products?limit=1')).toEqual([401, 200, 200, 200]);
    const listed = (await control('shops', undefined, 'GET')).json.shops;
    expect(listed.map((shop: Json) => [shop.name, shop.keyRevoked])).toEqual([
      ['shop-1', true],
      ['shop-2', false],
      ['shop-3', false],
      ['shop-4', false],
    ]);
    expect((await control('shops/shop-9/revoke-key')).status).toBe(404);
    expect((await call(`${url}/_sandbox/shops`, keys[0]!)).status).toBe(401);
    await sandbox.stop();
  }, 90_000);

  it('delivers each shop to /webhooks/<shop> with its own secret; walkers readable over control', async () => {
    const receiver = await suite.receiver();
    const base = receiver.url.replace(/\/webhooks\/shop$/, '');
    const file = join(suite.scratch(), 'forward.json');
    const sandbox = suite.cli.start([
      'sandbox',
      '--json',
      '--port',
      '0',
      '--shops',
      '2',
      '--shops-file',
      file,
      '--forward-to',
      `${base}/webhooks/{shop}`,
      // A walk counts until this long after its last page: the read below is still under way when counted.
      '--walk-idle-ms',
      '60000',
    ]);
    const ready = await sandbox.until(
      () => sandbox.records().find((record) => record.event === 'ready'),
      30_000,
    );
    const shops = await loadShops(file);
    const [one, two] = shops;
    // shop-2's own trigger: the control surface acts on the shop of the key it is given.
    const made = await call(`${ready.url}/_sandbox/trigger`, two!.apiKey(), 'POST', {
      type: 'sale.completed',
    });
    expect(made.status).toBe(200);
    await receiver.until((received) => received.length > 0, 20_000);
    await sandbox.until(() => sandbox.records().some((record) => record.event === 'delivery'), 20_000);
    const listed = await call(`${ready.url}/_sandbox/shops`, one!.apiKey());
    expect(listed.json.shops.map((shop: Json) => shop.endpoints)).toEqual([
      [`${base}/webhooks/shop-1`],
      [`${base}/webhooks/shop-2`],
    ]);
    for (const got of receiver.received) {
      const body = got.body;
      const headers = got.headers as Record<string, string>;
      await expect(
        verifyWebhook({ body, headers, secret: two!.webhookSecrets()[0]! }),
      ).resolves.toMatchObject({
        type: expect.any(String),
      });
      await expect(verifyWebhook({ body, headers, secret: one!.webhookSecrets()[0]! })).rejects.toThrow();
    }
    const delivery = sandbox.records().find((record) => record.event === 'delivery')!;
    expect(delivery.shop).toBe('shop-2');

    const walkers = await call(`${ready.url}/_sandbox/walkers`, one!.apiKey());
    expect(walkers.json.walkers).toEqual({ 'shop-1': { now: 0, max: 0 }, 'shop-2': { now: 0, max: 0 } });
    await call(`${ready.url}/v1/products?limit=100`, one!.apiKey());
    const after = await call(`${ready.url}/_sandbox/walkers`, one!.apiKey());
    expect(after.json.walkers['shop-1']).toEqual({ now: 1, max: 1 });
    await sandbox.stop();
  }, 90_000);
});
