// `shop-mgmt sync --listen` killed with SIGKILL 30 times: 15 during its backfill (once after each of the first
// 14 of its 17 streams, at a random moment into the next) and 15 while it serves webhooks, each one after the
// shop changed while it was up and at least one of those deliveries was answered 2xx by it (its receiver
// writes into the SQLite inbox, its worker applies from there). The feed is read only at each start (the
// interval is an hour), so between starts the inbox worker alone keeps the database current. Then one last
// run, not killed: the shop changes while it is up, and once its inbox is drained the database equals the
// sandbox's state row for row, through the API, before any feed read; then a final `--once` (the same).
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSyncDatabase } from '../../src/sync/engine/database.js';
import { openSqliteDatabase } from '../../src/sync/inbox/sqlite.js';
import type { DeliveryAttempt } from '../../src/testing/index.js';
import { churn, compareWithApi, servedSandbox, totals } from '../sync/engine/support.js';
import { cliSuite } from './helpers.js';

const suite = cliSuite('sync-crash');
// 30: 15 kills in the backfill hit every stream boundary it can reach (1 to 14 streams done, mid-stream
// after each), and 15 while it serves webhooks. Each restart resumes from what the kill left, so more kills
// repeat points already hit rather than reach new ones.
const KILLS = 30;
/** Deliveries answered 2xx by the sync's receiver over the test: the webhook path did the work. */
const SERVED_2XX = 100;

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

  it(`loses nothing and leaves nothing stale after ${KILLS} kills, ${KILLS / 2} of them while serving webhooks`, async () => {
    const db = join(suite.scratch(), 'crash.db');
    const port = await freePort();
    const { secret } = shop.sandbox.webhooks.addEndpoint({ url: `http://127.0.0.1:${port}/`, types: ['*'] });
    const env = { SHOP_API_KEY: shop.sandbox.createKey(), SHOP_API_BASE_URL: shop.url };
    // The feed is read at each start (the run's catch-up), then only after an hour: between starts, what
    // the shop does reaches the database through the webhooks and the inbox alone.
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
      '3600',
    ];
    // Every delivery attempt, gathered from the sandbox's log (which keeps the last 1,000) after each step.
    const attempts = new Map<string, DeliveryAttempt>();
    const gather = () => {
      for (const attempt of shop.sandbox.webhooks.deliveries())
        attempts.set(`${attempt.deliveryId}:${attempt.attempt}`, attempt);
    };
    const answered2xx = () =>
      [...attempts.values()].filter((a) => a.httpStatus !== null && a.httpStatus < 300).length;
    // A fixed sequence of kill delays (not a wall-clock margin: any delay is a valid kill point).
    let seed = 18;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let duringBackfill = 0;
    let whileServing = 0;
    let hour = 24;
    for (let kill = 0; kill < KILLS; kill++) {
      const child = suite.cli.start(args, env);
      let changes: Promise<unknown> = Promise.resolve();
      let servedBefore = 0;
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
        // The shop changes while the sync is up (bookings, new guests, check-ins, cancellations, in two
        // batches); the kill comes a random moment after its receiver answered one of those deliveries 2xx,
        // often while the rest are still being made and sent (those are refused, and retried a minute on).
        gather();
        servedBefore = answered2xx();
        const first = hour;
        hour += 4;
        changes = churn(shop.client, 2, first).then(() => churn(shop.client, 2, first + 2));
        await child.until(() => {
          gather();
          return answered2xx() > servedBefore;
        }, 60_000);
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 300)));
      }
      const live = child.stdout.some((line) => line.includes('"event":"listening"'));
      child.child.kill('SIGKILL');
      expect(await child.exited).toBe(null);
      await changes;
      gather();
      if (!live) duringBackfill++;
      else if (answered2xx() > servedBefore) whileServing++;
    }

    // The last run is not killed: the shop changes while it is up, every delivery is answered, the worker
    // drains the inbox, and the database is compared before the feed is read again.
    const last = suite.cli.start(args, env);
    await last.until(() => last.stdout.some((line) => line.includes('"event":"listening"')), 120_000);
    gather();
    const servedBeforeLast = answered2xx();
    // Bookings, new guests, check-ins and cancellations: changes whose every record comes with an event (a
    // no-show, which churn makes from its third booking on, also flags its lane for reset, and a lane has no
    // event: a repair pass brings that, not the inbox).
    for (let batch = 0; batch < 3; batch++, hour += 2) await churn(shop.client, 2, hour);
    await shop.sandbox.webhooks.flush();
    gather();
    const servedLast = answered2xx() - servedBeforeLast;
    const inbox = await openSqliteDatabase(db);
    try {
      const open = () => {
        const [row] = inbox.prepare("SELECT count(*) AS n FROM shop_inbox WHERE status <> 'done'").all();
        return Number((row as { n: number }).n);
      };
      await last.until(() => open() === 0, 60_000);
    } finally {
      inbox.close();
    }
    let database = await openSyncDatabase(db);
    try {
      const live = totals(await compareWithApi(shop.client, database, 'crash'));
      console.log(
        `sync crash, live: ${servedLast} deliveries answered 2xx by the last run; ${live.api} rows compared, ${live.lost} lost, ${live.stale} stale`,
      );
      expect(live).toMatchObject({ lost: 0, stale: 0, extra: 0 });
    } finally {
      await database.close();
    }
    expect(await last.stop('SIGTERM')).toBe(0);

    const final = await suite.cli.run(
      ['sync', '--db', db, '--json', '--shop', 'crash', '--once'],
      env,
      120_000,
    );
    expect(final.code, final.stderr.join('\n')).toBe(0);
    gather();
    const byAnswer: Record<string, number> = {};
    for (const attempt of attempts.values()) {
      const key = String(attempt.httpStatus ?? attempt.error?.split(':')[0]);
      byAnswer[key] = (byAnswer[key] ?? 0) + 1;
    }

    database = await openSyncDatabase(db);
    try {
      const differences = await compareWithApi(shop.client, database, 'crash');
      expect(differences.find((row) => row.table === 'range_reservation')!.api).toBeGreaterThan(6_000);
      expect(totals(differences)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
      console.log(
        `sync crash: ${KILLS} kills (${duringBackfill} in the backfill, ${whileServing} while serving webhooks); delivery attempts by answer ${JSON.stringify(byAnswer)}; ${totals(differences).api} rows compared, 0 lost, 0 stale`,
      );
    } finally {
      await database.close();
    }
    expect(duringBackfill).toBeGreaterThanOrEqual(14);
    expect(whileServing).toBe(KILLS / 2);
    expect(servedLast).toBeGreaterThanOrEqual(10);
    expect(answered2xx()).toBeGreaterThanOrEqual(SERVED_2XX);
  }, 300_000);
});
