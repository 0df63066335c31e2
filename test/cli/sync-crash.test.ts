// `shop-mgmt sync` killed with SIGKILL 30 times, during its backfill (once after each of the first 14 of its
// 17 streams, at a random moment into the next) and during live sync (its own webhook receiver writing into
// the SQLite inbox, the feed, the shop changing in between), then one final `--once`: the database equals
// the sandbox's state row for row, through the API.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSyncDatabase } from '../../src/sync/engine/database.js';
import { churn, compareWithApi, servedSandbox, totals } from '../sync/engine/support.js';
import { cliSuite } from './helpers.js';

const suite = cliSuite('sync-crash');
// 30: 15 kills in the backfill hit every stream boundary it can reach (1 to 14 streams done, mid-stream
// after each), and 15 while it serves webhooks, with the shop changing between every fifth. Each restart
// resumes from what the kill left, so more kills repeat points already hit rather than reach new ones.
const KILLS = 30;

/** A free port on 127.0.0.1 for the child's receiver (the same one across restarts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('sync killed -9 at random points', () => {
  let shop: Awaited<ReturnType<typeof servedSandbox>>;
  beforeAll(async () => {
    shop = await servedSandbox({ records: { reservations: 6_000 }, clock: 'real', autoDeliver: true });
  });
  afterAll(async () => shop?.close());

  it(`loses nothing and leaves nothing stale after ${KILLS} kills`, async () => {
    const db = join(suite.scratch(), 'crash.db');
    const port = await freePort();
    const { secret } = shop.sandbox.webhooks.addEndpoint({ url: `http://127.0.0.1:${port}/`, types: ['*'] });
    const env = { SHOP_API_KEY: shop.sandbox.createKey(), SHOP_API_BASE_URL: shop.url };
    const args = [
      'sync',
      '--db',
      db,
      '--json',
      '--shop',
      'crash',
      '--listen',
      String(port),
      '--secret',
      secret,
      '--interval',
      '1',
    ];
    // A fixed sequence of kill delays (not a wall-clock margin: any delay is a valid kill point).
    let seed = 18;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let duringBackfill = 0;
    let duringLive = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const child = suite.cli.start(args, env);
      // The first half during the run's backfill (after 1, 2, ... 14 of its 17 streams, then one more, a
      // random moment into the next), the second half once it serves webhooks: points chosen by progress.
      if (kill < KILLS / 2) {
        const streams = 1 + (kill % 14);
        const finished = () => child.stdout.filter((line) => line.includes('"event":"stream"')).length;
        await child.until(() => finished() >= streams, 60_000);
        // A random moment into the next stream, cut short if that stream ends first: the last streams are
        // small, and a fixed delay could outlast the whole rest of the backfill.
        const delay = new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 40)));
        // (The losing wait ends when the child is killed; its rejection then is expected.)
        const next = child.until(() => finished() > streams, 60_000).catch(() => {});
        await Promise.race([delay, next]);
      } else {
        await child.until(() => child.stdout.some((line) => line.includes('"event":"listening"')), 60_000);
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 600)));
      }
      const live = child.stdout.some((line) => line.includes('"event":"listening"'));
      child.child.kill('SIGKILL');
      expect(await child.exited).toBe(null);
      if (live) duringLive++;
      else duringBackfill++;
      // The shop changes while the sync is down or starting (bookings, check-ins, cancellations).
      if (kill % 5 === 4) await churn(shop.client, 2, 24 + kill);
    }
    const final = await suite.cli.run(
      ['sync', '--db', db, '--json', '--shop', 'crash', '--once'],
      env,
      120_000,
    );
    expect(final.code, final.stderr.join('\n')).toBe(0);

    const database = await openSyncDatabase(db);
    try {
      const differences = await compareWithApi(shop.client, database, 'crash');
      expect(differences.find((row) => row.table === 'range_reservation')!.api).toBeGreaterThan(6_000);
      expect(totals(differences)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
      console.log(
        `sync crash: ${KILLS} kills (${duringBackfill} before it served webhooks, ${duringLive} while serving them); ${totals(differences).api} rows compared, 0 lost, 0 stale`,
      );
    } finally {
      await database.close();
    }
    expect(duringBackfill).toBeGreaterThanOrEqual(14);
    expect(duringLive).toBeGreaterThanOrEqual(15);
  }, 240_000);
});
