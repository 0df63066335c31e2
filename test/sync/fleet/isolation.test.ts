// One shop's trouble stays with that shop: among 20 shops, a revoked key (401), a shop answering 500s and a
// shop without the Range add-on (402). The other 17 end equal to their APIs, and the status names the three
// and why; the 500s shop recovers on its own back-off once its server does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../../src/generated/operations.js';
import { SyncStore, tableNamed } from '../../../src/sync/engine/store.js';
import { canonicalJson } from '../../../src/sync/engine/versions.js';
import { ShopFleet } from '../../../src/sync/fleet/fleet.js';
import { compareWithApi, freshDatabase, totals } from '../engine/support.js';
import { registryOf, type ServedShop, servedShops } from './support.js';

describe('isolation among 20 shops', () => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(20, 'iso', (index) => (index === 3 ? { rangeAddon: false } : {}));
  });
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it('keeps a revoked key, a failing server and a missing add-on to their own shops', async () => {
    const { db, cleanup } = await freshDatabase('sqlite');
    const revoked = shops[0]!;
    const failing = shops[1]!;
    const noAddOn = shops[2]!;
    revoked.sandbox.revokeKey(revoked.key);
    failing.sandbox.faults.next({ status: 500, times: 1_000_000 });
    const fleet = new ShopFleet({
      shops: await registryOf(shops),
      db,
      client: { maxRetries: 0 },
      retry: { baseMs: 50, maxMs: 200 },
    });
    const running = fleet.run();
    try {
      await until(async () => {
        const lines = await fleet.status();
        return (
          lines.length === 20 &&
          lines.filter((line) => line.state === 'current').length === 17 &&
          lines.find((line) => line.shop === noAddOn.name)?.state === 'degraded'
        );
      });
      const lines = await fleet.status();
      const troubled = lines
        .filter((line) => line.state !== 'current')
        .map((line) => [line.shop, line.state, line.reason]);
      expect(troubled).toEqual([
        ['iso-1', 'paused', 'key_revoked'],
        ['iso-2', 'retrying', 'server_error'],
        ['iso-3', 'degraded', 'missing_add_on'],
      ]);
      const byShop = new Map(lines.map((line) => [line.shop, line]));
      expect(byShop.get('iso-1')!.lastError).toMatch(/401/);
      expect(byShop.get('iso-2')!.lastError).toMatch(/500/);
      expect(byShop.get('iso-3')!.skipped).toContain('range_reservation');
      // The key itself is never in a status line.
      expect(JSON.stringify(lines)).not.toContain(revoked.key);

      // The other 17 equal their APIs row for row.
      const others = shops.slice(3);
      expect(others).toHaveLength(17);
      for (const shop of others) {
        const sum = totals(await compareWithApi(shop.client, db, shop.name));
        expect(sum.api, shop.name).toBeGreaterThan(50);
        expect({ ...sum, api: 0 }, shop.name).toEqual({ api: 0, lost: 0, stale: 0, extra: 0 });
      }
      // The shop without the add-on has its other tables.
      const api = await noAddOn.client
        .list(operations['products.list'], { query: { include: 'inventory', limit: 200 } })
        .toArray({ max: 1e6 });
      const held = await new SyncStore(db, noAddOn.name).records(tableNamed('product'));
      expect(api.length).toBeGreaterThan(0);
      expect(held.map(canonicalJson).sort()).toEqual(api.map((record) => canonicalJson(record)).sort());

      // The failing shop's server comes back: its own back-off retries it, and it catches up.
      failing.sandbox.faults.clear();
      await until(
        async () => (await fleet.status()).find((line) => line.shop === 'iso-2')?.state === 'current',
      );
      const recovered = totals(await compareWithApi(failing.client, db, failing.name));
      expect({ ...recovered, api: 0 }).toEqual({ api: 0, lost: 0, stale: 0, extra: 0 });
    } finally {
      await fleet.stop();
      await running;
      await cleanup();
    }
  }, 180_000);
});

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}
