// The walker count the 3-worker test (test/cli/sync-fleet-workers.test.ts) asserts on, against two real
// fleets on one PostgreSQL and one many-shop sandbox over HTTP: with the leases broken (each fleet holding
// every shop, as LocalShopLeases does) the sandbox counts 2 walkers of a shop; with Postgres leases, 1.
import { afterEach, describe, expect, it } from 'vitest';
import { ShopFleet } from '../../../src/sync/fleet/fleet.js';
import { PostgresShopLeases } from '../../../src/sync/fleet/leases.js';
import { loadShops } from '../../../src/sync/fleet/registry.js';
import { createShopsSandbox } from '../../../src/testing/shops.js';
import { postgresDatabase, postgresUrl } from '../engine/support.js';

const SHOPS = 4;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setting() {
  const sandbox = createShopsSandbox({
    shops: SHOPS,
    clock: 'real',
    walkIdleMs: 500,
    rateLimits: { perMinute: 1_000_000, perDay: null },
  });
  const server = await sandbox.listen();
  closers.push(() => server.close());
  const db = await postgresDatabase();
  closers.push(() => db.cleanup());
  const shops = await loadShops(sandbox.registry(server.url));
  return { sandbox, db, shops };
}

/** Runs `fleet` until the test ends; its tables made before the next fleet starts (no race to create them). */
async function started(fleet: ShopFleet): Promise<void> {
  await fleet.database();
  void fleet.run();
  closers.push(() => fleet.stop());
}

/** Polls until every shop has been read at least 4 times by the fleets' feed reads (about 4 s). */
async function feedReads(sandbox: ReturnType<typeof createShopsSandbox>): Promise<void> {
  const reads = new Map<string, number>();
  const seen = sandbox.walkers();
  for (const name of Object.keys(seen)) reads.set(name, 0);
  const deadline = Date.now() + 60_000;
  // Each shop's walker count goes to 0 between reads (idle 500 ms, interval 1 s): count the rises.
  const last = new Map(Object.entries(seen).map(([name, count]) => [name, count.now]));
  while ([...reads.values()].some((count) => count < 4)) {
    if (Date.now() > deadline)
      throw new Error(`gave up waiting for feed reads: ${JSON.stringify([...reads])}`);
    await new Promise((wake) => setTimeout(wake, 50));
    for (const [name, count] of Object.entries(sandbox.walkers())) {
      if (count.now > 0 && last.get(name) === 0) reads.set(name, reads.get(name)! + 1);
      last.set(name, count.now);
    }
  }
}

describe.runIf(postgresUrl)('the sandbox walker count with two fleets', () => {
  it('is 2 for a shop when both fleets hold every shop (the leases broken)', async () => {
    const { sandbox, db, shops } = await setting();
    for (let fleet = 0; fleet < 2; fleet++)
      await started(new ShopFleet({ shops, db: db.url, intervalSeconds: 1 }));
    const deadline = Date.now() + 60_000;
    while (Object.values(sandbox.walkers()).every((count) => count.max < 2) && Date.now() < deadline)
      await new Promise((wake) => setTimeout(wake, 50));
    const most = Object.values(sandbox.walkers()).map((count) => count.max);
    expect(most).toHaveLength(SHOPS);
    expect(Math.max(...most)).toBeGreaterThanOrEqual(2);
  });

  it('is 1 for every shop when they share the shops by Postgres leases', async () => {
    const { sandbox, db, shops } = await setting();
    for (const holder of ['A', 'B'])
      await started(
        new ShopFleet({
          shops,
          db: db.url,
          intervalSeconds: 1,
          leases: (events) =>
            new PostgresShopLeases({ ...events, connectionString: db.url, holder, leaseMs: 3000 }),
        }),
      );
    await feedReads(sandbox);
    const counts = Object.values(sandbox.walkers());
    expect(counts).toHaveLength(SHOPS);
    expect(counts.map((count) => count.max)).toEqual(Array(SHOPS).fill(1));
  });
});

describe.runIf(postgresUrl)('a shop handed over to rebalance', () => {
  /** A holds every shop, then B joins; per shop B took: the gap from A's last call to B's first. */
  async function handover(slowA: boolean): Promise<number[]> {
    const { sandbox, db, shops } = await setting();
    const intervalMs = 2_000;
    const calls: { fleet: string; shop: string; at: number }[] = [];
    const fleet = (holder: string) =>
      new ShopFleet({
        shops,
        db: db.url,
        intervalSeconds: intervalMs / 1000,
        client: {
          hooks: {
            beforeRequest: [
              async (request) => {
                const shop = sandbox.shopOf(request.headers.get('authorization'))?.name ?? '?';
                calls.push({ fleet: holder, shop, at: performance.now() });
                // Slow calls: when A gives a shop up, a call of it is most likely under way.
                if (slowA && holder === 'A') await new Promise((wake) => setTimeout(wake, 1_500));
              },
            ],
          },
        },
        // A heartbeat of 500 ms: a released shop is claimed well within the interval.
        leases: (events) =>
          new PostgresShopLeases({ ...events, connectionString: db.url, holder, leaseMs: 1_500 }),
      });
    const wait = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 60_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(calls)}`);
        await new Promise((wake) => setTimeout(wake, 25));
      }
    };
    const calledBy = (name: string) =>
      new Set(calls.filter((call) => call.fleet === name).map((call) => call.shop));

    await started(fleet('A'));
    await wait('A to call every shop', () => calledBy('A').size === SHOPS);
    // B joins: A gives up half the shops at its next heartbeat and B takes them.
    await started(fleet('B'));
    await wait('B to call its share', () => calledBy('B').size === SHOPS / 2);
    const handed = [...calledBy('B')];
    expect(handed).toHaveLength(SHOPS / 2);
    const gaps = handed.map((shop) => {
      const first = calls.find((call) => call.fleet === 'B' && call.shop === shop)!.at;
      const before = calls.filter((call) => call.fleet === 'A' && call.shop === shop && call.at < first);
      const after = calls.filter((call) => call.fleet === 'A' && call.shop === shop && call.at >= first);
      expect(before.length, shop).toBeGreaterThan(0);
      expect(after, shop).toEqual([]);
      return Math.round(first - before.at(-1)!.at);
    });
    return gaps;
  }

  // A few ms below the interval: the last call's time goes through the wall clock on the shop's line.
  it('is called by the new holder an interval after the old holder last called it, not at once', async () => {
    expect((await handover(false)).filter((gap) => gap < 2_000 - 50)).toEqual([]);
  });

  it('is released only once the old holder is done with it: no call beside a call under way', {
    timeout: 90_000,
  }, async () => {
    expect((await handover(true)).filter((gap) => gap < 2_000 - 50)).toEqual([]);
  });
});
