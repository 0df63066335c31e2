// Full list reads (lists without updated_since) tell a vanished row by the walk that saw it, never by the
// local wall clock: a clock stepped back between two pages, or two engines sharing one checkpoint with
// clocks ten minutes apart, delete nothing that still exists; a row a full read marked vanished comes back
// when a later read sees it; and the engine's own spacing of calls follows a monotonic clock, so a step back
// does not stall it. Real databases, the sandbox over HTTP on loopback.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShopClient } from '../../../src/client.js';
import { ShopSync } from '../../../src/sync/engine/shop-sync.js';
import { compareWithApi, DIALECTS, freshDatabase, servedSandbox, totals } from './support.js';

/** The full-walk tables the sandbox fills, several pages each at 5 a page. */
const FULL = ['range_class_session', 'serialized_item', 'location', 'range_class'];

async function differences(client: ShopClient, db: Parameters<typeof compareWithApi>[1], shop: string) {
  const rows = (await compareWithApi(client, db, shop)).filter((row) => FULL.includes(row.table));
  expect(rows.map((row) => row.table).sort()).toEqual([...FULL].sort());
  return rows;
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(DIALECTS)('clock steps on $name', ({ name, available }) => {
  it.skipIf(!available)(
    'a clock stepped back 5 s between two pages loses no row',
    async () => {
      const shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
      const { db, cleanup } = await freshDatabase(name);
      try {
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(new Date('2026-11-02T08:00:00Z'));
        let steps = 0;
        const sync = new ShopSync({
          client: shop.client,
          db,
          shop: 'step',
          pageSize: 5,
          tables: FULL,
          onProgress: () => {
            steps++;
            vi.setSystemTime(Date.now() - 5_000);
          },
        });
        await sync.backfill();
        await sync.backfill();
        await sync.repair();
        expect(steps).toBeGreaterThan(10);
        const rows = await differences(shop.client, db, 'step');
        expect(totals(rows).api).toBeGreaterThan(40);
        expect(totals(rows)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
      } finally {
        vi.useRealTimers();
        await cleanup();
        await shop.close();
      }
    },
    60_000,
  );

  it.skipIf(!available)(
    'two engines sharing the checkpoints with clocks 10 minutes apart delete nothing that exists',
    async () => {
      const shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
      const { db, cleanup } = await freshDatabase(name);
      try {
        vi.useFakeTimers({ toFake: ['Date'] });
        const ahead = new Date('2026-11-02T08:10:00Z').getTime();
        const behind = new Date('2026-11-02T08:00:00Z').getTime();
        // Engine A (clock ahead) dies after its second page of each walk; engine B (clock behind) resumes it.
        const engine = (clock: number, dies: boolean) => {
          let pages = 0;
          return new ShopSync({
            client: shop.client,
            db,
            shop: 'skew',
            pageSize: 5,
            tables: FULL,
            onProgress: (step) => {
              vi.setSystemTime(clock + ++pages * 10);
              if (dies && step.pages === 2 && !step.done) throw new Error('killed');
            },
          });
        };
        for (let round = 0; round < 2; round++) {
          vi.setSystemTime(ahead);
          await expect(engine(ahead, true).backfill()).rejects.toThrow('killed');
          vi.setSystemTime(behind);
          await engine(behind, false).backfill();
          // And the other way round: the engine behind dies, the one ahead resumes.
          await expect(engine(behind, true).backfill()).rejects.toThrow('killed');
          vi.setSystemTime(ahead);
          await engine(ahead, false).backfill();
        }
        const rows = await differences(shop.client, db, 'skew');
        expect(totals(rows).api).toBeGreaterThan(40);
        expect(totals(rows)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
      } finally {
        vi.useRealTimers();
        await cleanup();
        await shop.close();
      }
    },
    60_000,
  );

  it.skipIf(!available)(
    'a row a full read marked vanished comes back when a later read sees it',
    async () => {
      const shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
      const { db, cleanup } = await freshDatabase(name);
      try {
        // A key limited to location 1 sees neither location 2 nor its sessions, serials and classes.
        const narrow = new ShopClient({
          apiKey: shop.sandbox.createKey({ locations: [1] }),
          baseUrl: shop.url,
          maxRetries: 0,
        });
        const options = { db, shop: 'revive', pageSize: 5, tables: FULL };
        await new ShopSync({ client: shop.client, ...options }).backfill();
        await new ShopSync({ client: narrow, ...options }).backfill();
        const gone = await db.all<{ id: number | string }>(
          'SELECT "id" FROM "location" WHERE "shop" = ? AND "deleted_at" IS NOT NULL',
          ['revive'],
        );
        expect(gone.map((row) => Number(row.id))).toEqual([2]);
        const hidden = totals(await differences(shop.client, db, 'revive'));
        expect(hidden.lost).toBeGreaterThan(3);
        // The full key sees them again: every one is back.
        await new ShopSync({ client: shop.client, ...options }).backfill();
        const rows = await differences(shop.client, db, 'revive');
        expect(totals(rows)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
        const deleted = await db.all(
          'SELECT "id" FROM "location" WHERE "shop" = ? AND "deleted_at" IS NOT NULL',
          ['revive'],
        );
        expect(deleted).toEqual([]);
      } finally {
        await cleanup();
        await shop.close();
      }
    },
    60_000,
  );
});

describe('the spacing of calls', () => {
  it('a clock stepped back an hour does not stall the engine', async () => {
    const shop = await servedSandbox({
      now: '2026-10-01T12:00:00Z',
      rateLimits: { perMinute: 6_000, perDay: null },
    });
    const { db, cleanup } = await freshDatabase('sqlite');
    // Every wait the process asks for is recorded, and one over a minute is cut to 20 ms, so a stall shows
    // as a long wait requested rather than as a test that hangs.
    const real = globalThis.setTimeout;
    const waits: number[] = [];
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      callback: () => void,
      ms?: number,
      ...rest: unknown[]
    ) => {
      waits.push(ms ?? 0);
      return real(callback, (ms ?? 0) > 60_000 ? 20 : ms, ...rest);
    }) as typeof setTimeout);
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-02T08:00:00Z'));
      let pages = 0;
      const sync = new ShopSync({
        client: shop.client,
        db,
        shop: 'spaced',
        pageSize: 5,
        maxShare: 0.5,
        tables: FULL,
        // A shared schedule that grants every call at once: only the engine's own spacing is left to test
        // (the client's throttle keeps its schedule on the wall clock, which processes share).
        rateLimit: { store: { reserve: async () => ({ waitMs: 0, slot: 0 }), pause: async () => undefined } },
        onProgress: () => {
          pages++;
          vi.setSystemTime(Date.now() - 3_600_000);
        },
      });
      await sync.backfill();
      expect(pages).toBeGreaterThanOrEqual(10);
      // The engine's gap at half of 6,000 a minute is about 21 ms; nothing waits anywhere near the step.
      expect(waits.filter((ms) => ms > 60_000)).toEqual([]);
    } finally {
      vi.useRealTimers();
      spy.mockRestore();
      await cleanup();
      await shop.close();
    }
  }, 60_000);
});
