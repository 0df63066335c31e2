// Issue 32: `/_sandbox/trigger` acts as the shop's staff, so it runs only for a full key (a key the API
// refuses a change must not make that change through a trigger), tested over HTTP against a sandbox
// process; a mistyped event type gets a did-you-mean and exits 2 before any call; SHOP_API_BASE_URL without
// its scheme is named as the variable it is, with the fix.
import { describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { cliSuite, startSandbox } from './helpers.js';

const { cli, receiver } = cliSuite('trigger-permissions');

async function phoneOf(shop: ShopClient, id: number): Promise<unknown> {
  const page = await shop.locations.list();
  return page.data.find((location) => location.id === id)?.phone;
}

async function feedIds(shop: ShopClient): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of shop.events.list({ limit: 200 })) ids.push(`${event.type} ${event.id}`);
  return ids;
}

describe('trigger and the caller key', () => {
  it('refuses location.updated and customer.deleted for a key without write, and changes nothing', async () => {
    const hook = await receiver(); // an endpoint, so that the sandbox records events in its feed
    const sandbox = await startSandbox(cli, [
      '--forward-to',
      hook.url,
      '--permissions',
      'range:read,locations:read,customers:read',
    ]);
    const shop = new ShopClient({ apiKey: sandbox.key, baseUrl: sandbox.url, maxRetries: 0 });
    const phone = await phoneOf(shop, 1);
    expect(phone).toBeDefined();
    await expect(shop.locations.update(1, { phone: '+12085550000' })).rejects.toMatchObject({ status: 403 });
    const feed = await feedIds(shop);

    for (const type of ['location.updated', 'customer.deleted']) {
      const response = await fetch(`${sandbox.url}/_sandbox/trigger`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type }),
      });
      expect(response.status, type).toBe(403);
      const body = (await response.json()) as { error: string };
      expect(body.error).toMatch(/needs a full key/);
      expect(body.error).toMatch(/locations:write/);
    }
    const cliRun = await cli.run(['trigger', 'location.updated'], {
      SHOP_API_KEY: sandbox.key,
      SHOP_API_BASE_URL: sandbox.url,
    });
    expect(cliRun.code).toBe(1);
    expect(cliRun.stderr.join('\n')).toMatch(/needs a full key/);

    expect(await phoneOf(shop, 1)).toBe(phone);
    // No location.updated, customer.created or customer.deleted was recorded: nothing changed.
    expect(await feedIds(shop)).toEqual(feed);
  });

  it('a full key still triggers location.updated', async () => {
    const sandbox = await startSandbox(cli);
    const run = await cli.run(['trigger', 'location.updated'], {
      SHOP_API_KEY: sandbox.key,
      SHOP_API_BASE_URL: sandbox.url,
    });
    expect(run.code, run.stderr.join('\n')).toBe(0);
  });
});

describe('trigger and base URL usage errors', () => {
  it('a mistyped type gets a did-you-mean and exits 2, with no sandbox needed', async () => {
    const run = await cli.run(['trigger', 'sale.complete'], {
      SHOP_API_KEY: 'sk_test_x',
      SHOP_API_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(2);
    expect(run.stderr.join('\n')).toMatch(/not a known event type; did you mean sale\.completed\?/);
  });

  it('SHOP_API_BASE_URL=localhost:4010 names the variable and offers http://localhost:4010', async () => {
    const run = await cli.run(['trigger', 'sale.completed'], {
      SHOP_API_KEY: 'sk_test_x',
      SHOP_API_BASE_URL: 'localhost:4010',
    });
    expect(run.code).toBe(2);
    const said = run.stderr.join('\n');
    expect(said).not.toMatch(/--SHOP_API_BASE_URL/);
    expect(said).toMatch(/SHOP_API_BASE_URL must be an http or https URL/);
    expect(said).toMatch(/did you mean "http:\/\/localhost:4010"\?/);
  });
});
