// 50 shops through one process on one Postgres database: after the backfill, a storm of changes in every
// shop reaches the fleet only through its one webhook entrance (the feed is read once, at the start), then
// every delivery again, newest first and twice (late, reordered, duplicated). Each shop's tables end equal
// to its own API row for row. One shop is mid-rotation: its registry still holds only the old secret.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopFleet } from '../../../src/sync/fleet/fleet.js';
import { churn, compareWithApi, DIALECTS, freshDatabase, totals } from '../engine/support.js';
import { registryOf, type ServedShop, servedShops } from './support.js';

const SHOPS = 50;
const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres')!;

describe('a webhook storm across 50 shops', () => {
  let shops: ServedShop[];
  beforeAll(async () => {
    shops = await servedShops(SHOPS, 'storm', () => ({ clock: 'real', autoDeliver: true }));
  }, 120_000);
  afterAll(async () => Promise.all(shops.map((shop) => shop.close())));

  it.runIf(postgres.available)(
    'ends with every shop equal to its API',
    async () => {
      const { db, cleanup } = await freshDatabase('postgres');
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const secrets = new Map<string, string[]>();
      const endpoints = new Map<string, string>();
      for (const shop of shops) {
        const endpoint = shop.sandbox.webhooks.addEndpoint({
          url: `${url}/webhooks/${shop.name}`,
          types: ['*'],
        });
        secrets.set(shop.name, [endpoint.secret]);
        endpoints.set(shop.name, endpoint.id);
      }
      // storm-1 rotates: deliveries carry a signature of the new and of the old secret during the grace, and
      // its registry entry has not been updated yet.
      shops[0]!.sandbox.webhooks.rotateSecret(endpoints.get('storm-1')!, { graceHours: 24 });
      const fleet = new ShopFleet({
        shops: await registryOf(shops, secrets),
        db,
        listen: server,
        intervalSeconds: 3600,
      });
      const running = fleet.run();
      try {
        await until(async () => {
          const lines = await fleet.status();
          return lines.length === SHOPS && lines.every((line) => line.state === 'current');
        });
        // The storm: bookings, check-ins and cancellations in every shop at once (a no-show flags its lane
        // without an event: only a list read, the fleet's hourly refresh, brings that).
        await Promise.all(shops.map((shop, index) => churn(shop.client, 2, (index % 10) * 4)));
        await Promise.all(shops.map((shop) => shop.sandbox.webhooks.flush()));
        // Every delivery again: newest first, then oldest first (old copies arriving after new ones).
        for (const shop of shops) {
          const sent = shop.sandbox.webhooks.deliveries();
          expect(sent.length, shop.name).toBeGreaterThan(3);
          for (const attempt of [...sent].reverse().concat(sent))
            shop.sandbox.webhooks.resend(attempt.deliveryId);
        }
        await Promise.all(shops.map((shop) => shop.sandbox.webhooks.flush()));
        for (const shop of shops) {
          const refused = shop.sandbox.webhooks
            .deliveries()
            .filter((attempt) => attempt.status !== 'succeeded');
          expect(
            refused.map((attempt) => `${attempt.httpStatus} ${attempt.error}`),
            shop.name,
          ).toEqual([]);
        }
        await until(async () => (await fleet.status()).every((line) => line.inboxPending === 0));
        for (const shop of shops) {
          const sum = totals(await compareWithApi(shop.client, db, shop.name));
          expect({ ...sum, api: 0 }, shop.name).toEqual({ api: 0, lost: 0, stale: 0, extra: 0 });
        }
        // The rows came through the entrance: every shop's deliveries are in its inbox, applied.
        const applied = await db.all<{ shop: string; count: string | number }>(
          'SELECT "shop", COUNT(*) AS "count" FROM "sync_shop_inbox" WHERE "applied_at" IS NOT NULL GROUP BY "shop"',
        );
        expect(applied).toHaveLength(SHOPS);
        // The feed was read once per shop (at the start): nothing after the storm came from it.
        const feeds = await db.all<{ count: string | number }>(
          'SELECT COUNT(*) AS "count" FROM "sync_runs" WHERE "shop" LIKE \'storm-%\'',
        );
        expect(Number(feeds[0]!.count)).toBe(SHOPS);
      } finally {
        await fleet.stop();
        await running;
        server.close();
        await cleanup();
      }
    },
    300_000,
  );
});

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}
