// Live sync against the sandbox over HTTP: webhooks into the SQLite inbox and its worker (rows and done mark
// in one transaction), a storm of changes, every delivery sent again out of order and twice, a receiver
// that is down for a while so some events come only from the feed, and the feed read late with a key
// without customers:read: the database still equals the API row for row, and no full customer is
// overwritten by the feed's reduced copy.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopClient } from '../../../src/client.js';
import { ShopSync } from '../../../src/sync/engine/shop-sync.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';
import { churn, compareWithApi, freshDatabase, servedSandbox, totals } from './support.js';

describe('a webhook storm with duplicates, reordering, a receiver outage and late feed events', () => {
  let shop: Awaited<ReturnType<typeof servedSandbox>>;
  beforeAll(async () => {
    shop = await servedSandbox({ clock: 'real', autoDeliver: true });
  });
  afterAll(async () => shop?.close());

  it('ends equal to the API with no customer reduced', async () => {
    const { target, db, cleanup } = await freshDatabase('sqlite');
    const store = await SqliteInboxStore.open(target);
    const inbox = new Inbox(store);
    await inbox.ready();
    try {
      const key = shop.sandbox.createKey({
        permissions: [
          'range:read',
          'memberships:read',
          'products:read',
          'inventory:read',
          'locations:read',
          'returns:read',
          'card_transactions:read',
          'store_credit:read',
          'accounts:read',
        ],
      });
      const limited = new ShopClient({ apiKey: key, baseUrl: shop.url, maxRetries: 0 });
      const sync = new ShopSync({ client: limited, db, shop: 'storm' });
      await sync.runOnce();

      const captured: { body: string; headers: Record<string, string> }[] = [];
      let down = false;
      let secret = '';
      const handler = () => createWebhookHandler({ secret, inbox });
      const server = createServer(async (request, response) => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        );
        if (down) return void response.writeHead(503).end();
        captured.push({ body, headers });
        const answer = await handler()(new Request('http://receiver/', { method: 'POST', body, headers }));
        response.writeHead(answer.status).end(await answer.text());
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      secret = shop.sandbox.webhooks.addEndpoint({ url, types: ['*'] }).secret;
      const worker = inbox.work(sync.inboxHandler(), { onError: () => undefined });

      await churn(shop.client, 12, 0);
      await shop.sandbox.webhooks.flush();
      down = true; // these events reach the database only through the feed
      await churn(shop.client, 6, 20);
      await shop.sandbox.webhooks.flush();
      down = false;
      const firstDeliveries = [...captured];
      // Every delivery again, newest first, twice: duplicates and reordering must change nothing.
      for (const delivery of [...firstDeliveries].reverse().concat(firstDeliveries)) {
        const answer = await fetch(url, { method: 'POST', body: delivery.body, headers: delivery.headers });
        expect(answer.status).toBe(200);
      }
      await worker.idle();
      await sync.catchUp(); // late: the feed's copies arrive after the webhooks'
      await worker.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));

      expect(firstDeliveries.length).toBeGreaterThan(20);
      // The tables events carry are current from events alone.
      const differences = await compareWithApi(shop.client, db, 'storm');
      const carried = differences.filter((row) => row.table === 'range_reservation');
      expect(totals(carried)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
      // A lane's floor status has no event: the repair pass finds it, fixes it and reports the gap.
      const gaps: string[] = [];
      const repairing = new ShopSync({
        client: limited,
        db,
        shop: 'storm',
        onGap: (gap) => gaps.push(gap.reason),
      });
      const repair = await repairing.repair();
      // Check-ins moved lanes' floor status, which no event carries: the repair has rows to fix, counts
      // them, and reports the gap once.
      expect(repair.repaired).toBeGreaterThan(0);
      expect(repair.repaired).toBe(totals(differences).stale + totals(differences).lost);
      expect(gaps).toEqual(['missed_changes']);
      expect(totals(await compareWithApi(shop.client, db, 'storm'))).toMatchObject({
        lost: 0,
        stale: 0,
        extra: 0,
      });
      const runs = await db.all<{ kind: string; rows_repaired: number }>(
        'SELECT "kind", "rows_repaired" FROM "sync_runs" WHERE "shop" = ? AND "kind" = ?',
        ['storm', 'repair'],
      );
      expect(runs.map((run) => Number(run.rows_repaired))).toEqual([repair.repaired]);
      // Guests arrived by webhook (full) and by the feed of a key without customers:read (reduced or absent).
      const customers = await db.all<{ record: string }>('SELECT "record" FROM "customer" WHERE "shop" = ?', [
        'storm',
      ]);
      const parsed = customers.map((row) => JSON.parse(row.record) as { email?: string });
      expect(parsed.length).toBeGreaterThanOrEqual(12);
      expect(parsed.filter((customer) => customer.email === undefined).length).toBeLessThanOrEqual(6);
      const viaWebhook = firstDeliveries.filter((delivery) =>
        delivery.body.includes('"customer.created"'),
      ).length;
      expect(parsed.filter((customer) => customer.email !== undefined).length).toBe(viaWebhook);
    } finally {
      await store.close();
      await cleanup();
    }
  }, 90_000);
});
