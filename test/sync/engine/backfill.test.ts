// Backfill against the sandbox over HTTP into real databases: 50,000 reservations and every other stream
// into a SQLite file, compared row for row with the API; a smaller shop into Postgres; two shops in one
// database; a crash between pages resumes at the page; a key without customers:read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopSync } from '../../../src/sync/engine/shop-sync.js';
import { compareWithApi, DIALECTS, freshDatabase, servedSandbox, totals } from './support.js';

describe('backfill of 50,000 reservations and every other stream into SQLite', () => {
  let shop: Awaited<ReturnType<typeof servedSandbox>>;
  beforeAll(async () => {
    shop = await servedSandbox({ records: { reservations: 50_000 }, now: '2026-10-01T12:00:00Z' });
  });
  afterAll(async () => shop?.close());

  it('copies every list row for row, and a second run reads only what changed', async () => {
    const { db, cleanup } = await freshDatabase('sqlite');
    try {
      const sync = new ShopSync({ client: shop.client, db, shop: 'big' });
      const first = await sync.runOnce();
      expect(first.skipped).toEqual([]);
      const differences = await compareWithApi(shop.client, db, 'big');
      const reservations = differences.find((row) => row.table === 'range_reservation')!;
      expect(reservations.api).toBeGreaterThanOrEqual(50_000);
      expect(differences.filter((row) => row.api > 0).map((row) => row.table).length).toBeGreaterThanOrEqual(
        15,
      );
      expect(totals(differences)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
      // Nothing changed: the incremental streams read from the walk's start and write nothing new.
      const second = await sync.runOnce();
      expect(second.written).toBe(0);
      expect(second.rows).toBeLessThan(first.rows / 10);
      const runs = await db.all<Record<string, unknown>>(
        'SELECT "kind", "status", "rows_written" FROM "sync_runs" WHERE "shop" = ? ORDER BY "started_at"',
        ['big'],
      );
      expect(runs.map((run) => [run.kind, run.status])).toEqual([
        ['once', 'finished'],
        ['once', 'finished'],
      ]);
      expect(Number(runs[0]!.rows_written)).toBe(first.written);
    } finally {
      await cleanup();
    }
  }, 120_000);
});

describe.each(DIALECTS)('backfill into $name', ({ name, available }) => {
  it.skipIf(!available)(
    'resumes at the page after a crash between pages, and keeps two shops apart',
    async () => {
      const one = await servedSandbox({
        records: { reservations: 1_500 },
        seed: 1,
        now: '2026-10-01T12:00:00Z',
      });
      const two = await servedSandbox({
        records: { reservations: 700 },
        seed: 2,
        now: '2026-10-01T12:00:00Z',
      });
      const { db, cleanup } = await freshDatabase(name);
      try {
        // The process "dies" after the fourth page of reservations: the pages before it are committed with their
        // checkpoint, and the next run starts at the fifth page.
        let pages = 0;
        const crashing = new ShopSync({
          client: one.client,
          db,
          shop: 'one',
          pageSize: 100,
          tables: ['range_reservation'],
          onProgress: (step) => {
            if (step.stream === 'range_reservation' && ++pages === 4) throw new Error('killed');
          },
        });
        await expect(crashing.backfill()).rejects.toThrow('killed');
        const saved = await db.all<Record<string, unknown>>(
          'SELECT "cursor", "rows" FROM "sync_checkpoints" WHERE "shop" = ? AND "stream" = ?',
          ['one', 'range_reservation'],
        );
        expect(saved[0]?.cursor).toBeTruthy();
        expect(Number(saved[0]?.rows)).toBe(400);
        let firstPage = -1;
        const resumed = new ShopSync({
          client: one.client,
          db,
          shop: 'one',
          pageSize: 100,
          onProgress: (step) => {
            if (step.stream === 'range_reservation' && firstPage < 0) firstPage = step.rows;
          },
        });
        await resumed.runOnce();
        expect(firstPage).toBe(100);
        await new ShopSync({ client: two.client, db, shop: 'two' }).runOnce();
        expect(totals(await compareWithApi(one.client, db, 'one'))).toMatchObject({
          lost: 0,
          stale: 0,
          extra: 0,
        });
        expect(totals(await compareWithApi(two.client, db, 'two'))).toMatchObject({
          lost: 0,
          stale: 0,
          extra: 0,
        });
      } finally {
        await cleanup();
        await one.close();
        await two.close();
      }
    },
    90_000,
  );
});

describe('a key without customers:read', () => {
  it('skips nothing it may read, reports the lists it may not as gaps, and keeps the rows it can read', async () => {
    const shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
    const { db, cleanup } = await freshDatabase('sqlite');
    try {
      const { ShopClient } = await import('../../../src/client.js');
      const key = shop.sandbox.createKey({
        permissions: ['range:read', 'memberships:read', 'products:read', 'inventory:read'],
      });
      const client = new ShopClient({ apiKey: key, baseUrl: shop.url, maxRetries: 0 });
      const gaps: string[] = [];
      const sync = new ShopSync({
        client,
        db,
        shop: 'limited',
        onGap: (gap) => gaps.push(`${gap.stream}:${gap.reason}`),
      });
      const result = await sync.runOnce();
      expect(result.skipped).toContain('card_transaction');
      expect(gaps).toContain('card_transaction:stream_unavailable');
      const readable = (await compareWithApi(shop.client, db, 'limited')).filter((row) =>
        ['range_reservation', 'membership', 'product', 'inventory_level'].includes(row.table),
      );
      expect(totals(readable)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
    } finally {
      await cleanup();
      await shop.close();
    }
  }, 60_000);
});

describe('gaps and estimates', () => {
  it("reports a feed checkpoint older than the feed's 30 days and re-reads every stream from it", async () => {
    const shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
    const { db, cleanup } = await freshDatabase('sqlite');
    try {
      shop.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });
      const gaps: { reason: string; since: string | null }[] = [];
      const sync = new ShopSync({ client: shop.client, db, shop: 'gap', onGap: (gap) => gaps.push(gap) });
      await sync.runOnce();
      shop.sandbox.clock.advance('31d');
      const { churn } = await import('./support.js');
      await churn(shop.client, 3, 0);
      await sync.catchUp();
      expect(gaps.map((gap) => gap.reason)).toEqual(['feed_expired']);
      expect(totals(await compareWithApi(shop.client, db, 'gap'))).toMatchObject({
        lost: 0,
        stale: 0,
        extra: 0,
      });
      // The checkpoint moved to the present: the next read is an ordinary one.
      await sync.catchUp();
      expect(gaps).toHaveLength(1);
    } finally {
      await cleanup();
      await shop.close();
    }
  }, 60_000);

  it('estimates the calls of a backfill at the plan rate and the share, writing no record', async () => {
    const shop = await servedSandbox({
      records: { reservations: 450 },
      rateLimits: { perMinute: 60, perDay: null },
    });
    const { db, cleanup } = await freshDatabase('sqlite');
    try {
      const sync = new ShopSync({ client: shop.client, db, shop: 'estimate', maxShare: 0.5 });
      const cost = await sync.estimate();
      const reservations = cost.streams.find((stream) => stream.stream === 'range_reservation');
      expect(reservations).toEqual({ stream: 'range_reservation', pages: 2, exact: false });
      expect(cost.streams.find((stream) => stream.stream === 'location')).toEqual({
        stream: 'location',
        pages: 1,
        exact: true,
      });
      expect(cost.requestsPerMinute).toBe(60);
      expect(cost.minutes).toBeCloseTo(cost.calls / 30);
      // Nothing written, not even the tables: an estimate never migrates the database.
      const tables = await db.all<{ name: string }>('SELECT "name" FROM "sqlite_master" WHERE "type" = ?', [
        'table',
      ]);
      expect(tables).toEqual([]);
    } finally {
      await cleanup();
      await shop.close();
    }
  }, 60_000);
});

describe('deletes', () => {
  it('a product deleted in the shop gets deleted_at from its event, and the copy equals the API', async () => {
    const shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
    const { db, cleanup } = await freshDatabase('sqlite');
    try {
      shop.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });
      const product = shop.sandbox.owner.addProduct({ sku: 'DEL-1', name: 'To be deleted', priceCents: 500 });
      const sync = new ShopSync({ client: shop.client, db, shop: 'deletes' });
      await sync.runOnce();
      const before = await db.all<{ deleted_at: string | null }>(
        'SELECT "deleted_at" FROM "product" WHERE "shop" = ? AND "id" = ?',
        ['deletes', product.id],
      );
      expect(before).toEqual([{ deleted_at: null }]);
      shop.sandbox.clock.advance('1m');
      shop.sandbox.owner.deleteProduct(product.id);
      await sync.catchUp();
      const after = await db.all<{ deleted_at: string | null }>(
        'SELECT "deleted_at" FROM "product" WHERE "shop" = ? AND "id" = ?',
        ['deletes', product.id],
      );
      expect(after[0]?.deleted_at).toBe('2026-10-01T12:01:00.000Z');
      // A later full pass does not bring it back.
      await sync.runOnce();
      expect(totals(await compareWithApi(shop.client, db, 'deletes'))).toMatchObject({
        lost: 0,
        stale: 0,
        extra: 0,
      });
    } finally {
      await cleanup();
      await shop.close();
    }
  }, 60_000);
});
