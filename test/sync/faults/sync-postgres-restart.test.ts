// `shop-mgmt sync --listen --db postgres://` (the built bin, its own process) against a sandbox shop in this
// process, while its PostgreSQL (a server of this file's own) is restarted twice, the shop changing while
// the database is down: the process lives (it exited 1 within 2 s of a restart before: the inbox's pool had
// no 'error' listener), and the changes reach the database once it is back, row for row.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSyncDatabase } from '../../../src/sync/engine/database.js';
import { cliSuite } from '../../cli/helpers.js';
import { hasPostgresServer, type OwnPostgres, startOwnPostgres } from '../../setup/postgres-server.js';
import { churn, compareWithApi, servedSandbox, totals } from '../engine/support.js';

const suite = cliSuite('db-faults-sync');
const RESTARTS = 2;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!hasPostgresServer())('sync --listen on Postgres while the database restarts', () => {
  let database: OwnPostgres;
  let shop: Awaited<ReturnType<typeof servedSandbox>>;
  beforeAll(async () => {
    [database, shop] = await Promise.all([
      startOwnPostgres(),
      servedSandbox({ clock: 'real', autoDeliver: true }),
    ]);
  });
  afterAll(async () => {
    await shop?.close();
    database?.resume();
    await database?.stop();
  });

  it(`lives through ${RESTARTS} restarts and writes what changed meanwhile`, async () => {
    const url = database.createDatabase('sync_faults');
    const port = await freePort();
    const { secret } = shop.sandbox.webhooks.addEndpoint({ url: `http://127.0.0.1:${port}/`, types: ['*'] });
    const env = { SHOP_API_KEY: shop.sandbox.createKey(), SHOP_API_BASE_URL: shop.url };
    const child = suite.cli.start(
      ['sync', '--db', url, '--json', '--shop', 'faults', '--listen', String(port), '--interval', '1'],
      { ...env, SHOP_WEBHOOK_SECRET: secret },
    );
    await child.until(() => child.stdout.some((line) => line.includes('"event":"listening"')), 60_000);
    for (let restart = 0; restart < RESTARTS; restart++) {
      await database.halt();
      // Bookings, check-ins, cancellations while the database is down: their webhooks are answered 503.
      await churn(shop.client, 2, 30 + restart * 4);
      await database.start();
      expect(child.child.exitCode, child.stderr.join('\n')).toBe(null);
    }
    // Back: the feed (read every second) and the sandbox's retries bring what was refused.
    const db = await openSyncDatabase(url);
    let differences = await compareWithApi(shop.client, db, 'faults');
    try {
      const deadline = Date.now() + 45_000;
      while (totals(differences).lost + totals(differences).stale > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        differences = await compareWithApi(shop.client, db, 'faults');
      }
    } finally {
      await db.close();
    }
    const sum = totals(differences);
    console.log(
      `[db faults, sync --listen postgres] ${RESTARTS} restarts: exits ${child.child.exitCode === null ? 0 : 1}, ${sum.api} rows compared, lost ${sum.lost}, stale ${sum.stale}`,
    );
    expect(child.child.exitCode, child.stderr.join('\n')).toBe(null);
    expect(sum.api).toBeGreaterThan(0);
    expect(sum).toMatchObject({ lost: 0, stale: 0, extra: 0 });
  }, 120_000);
});
