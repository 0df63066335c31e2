// Shop naming of `shop-mgmt sync` (issue 30, "Two shops mix in one database"): the rows of a shop are named by
// `--shop`, never by the API's address, which every shop shares. The repro of the issue, over real HTTP: two
// sandbox processes (seed 1, then seed 2) served on the SAME port, each synced by its own `sync` process into
// one database (SQLite, then the test setup's Postgres) without --shop: each shop keeps its own rows, and
// reservation 1 keeps each shop's own email. And a live shop (a server that is not a sandbox process) without
// --shop is refused before anything is written.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { openSyncDatabase } from '../../src/sync/engine/database.js';
import { createSandbox } from '../../src/testing/sandbox.js';
import { postgresDatabase, postgresUrl } from '../sync/engine/support.js';
import { CliRunner, cliSuite } from './helpers.js';

const suite = cliSuite('sync-shops');
const shops = new CliRunner(() => suite.cli.binPath());
afterAll(() => shops.killAll());

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** What one sandbox shop's API says: its reservations' ids and reservation 1's email. */
interface ShopFacts {
  readonly ids: number[];
  readonly email: string;
}

/**
 * Serves a sandbox of `seed` on `port`, syncs it into `db` with `sync --once` (no --shop), reads what its API
 * holds, and stops it: the name the sync gave its rows, and the API's facts.
 */
async function syncSandbox(seed: number, port: number, db: string): Promise<{ name: string } & ShopFacts> {
  const sandbox = shops.start([
    'sandbox',
    '--json',
    '--port',
    String(port),
    '--seed',
    String(seed),
    '--rate-limit',
    'off',
  ]);
  try {
    const ready = await sandbox.until(
      () => sandbox.records().find((record) => record.event === 'ready'),
      30_000,
    );
    expect(ready.url).toBe(`http://127.0.0.1:${port}`);
    const key = ready.key as string;
    const env = { SHOP_API_KEY: key, SHOP_API_BASE_URL: ready.url as string };
    const sync = await suite.cli.run(
      ['sync', '--db', db, '--once', '--tables', 'range_reservation', '--json'],
      env,
      120_000,
    );
    expect(sync.code, sync.stderr.join('\n')).toBe(0);
    const output = [...sync.stdout, ...sync.stderr].join('\n');
    expect(output).not.toContain(key);
    const name = /rows are named (sandbox-[0-9a-f]{12})/.exec(output)?.[1];
    expect(name, output).toBeDefined();
    const shop = new ShopClient({ apiKey: key, baseUrl: ready.url as string });
    const ids: number[] = [];
    for await (const reservation of shop.range.reservations.list()) ids.push(reservation.id);
    const email = (await shop.range.reservations.retrieve(1)).contact?.email;
    expect(typeof email).toBe('string');
    return { name: name!, ids, email: email as string };
  } finally {
    await sandbox.stop();
  }
}

async function twoShopsOneDatabase(db: string): Promise<void> {
  const port = await freePort();
  const first = await syncSandbox(1, port, db);
  const second = await syncSandbox(2, port, db);
  // The two shops differ where the issue saw them mixed.
  expect(second.email).not.toBe(first.email);
  expect(first.ids.length).toBeGreaterThan(10);

  const database = await openSyncDatabase(db);
  try {
    for (const shop of [first, second]) {
      const rows = await database.all<{ id: number | string; record: string | Record<string, unknown> }>(
        'SELECT "id", "record" FROM "range_reservation" WHERE "shop" = ? ORDER BY "id"',
        [shop.name],
      );
      expect(rows.map((row) => Number(row.id))).toEqual([...shop.ids].sort((a, b) => a - b));
      const one = rows.find((row) => Number(row.id) === 1);
      // JSON text on SQLite, JSONB (an object) on Postgres.
      const record = typeof one!.record === 'string' ? JSON.parse(one!.record) : one!.record;
      expect(record.contact.email).toBe(shop.email);
    }
    // Two names, one per shop, although host and port agree.
    const names = await database.all<{ shop: string }>(
      'SELECT DISTINCT "shop" FROM "range_reservation" ORDER BY "shop"',
    );
    expect(names.map((row) => row.shop)).toEqual([first.name, second.name].sort());
    expect(second.name).not.toBe(first.name);
  } finally {
    await database.close();
  }
}

describe('two sandbox shops on the same host and port, synced into one database', () => {
  it('never share a row (SQLite)', { timeout: 300_000 }, async () => {
    await twoShopsOneDatabase(join(suite.scratch(), 'two-shops.db'));
  });

  it.runIf(postgresUrl)('never share a row (Postgres)', { timeout: 300_000 }, async () => {
    const made = await postgresDatabase();
    try {
      await twoShopsOneDatabase(made.url);
    } finally {
      await made.cleanup();
    }
  });
});

describe('a live shop without --shop', () => {
  it('is refused with exit 2, saying why and how, before anything is written', {
    timeout: 180_000,
  }, async () => {
    // A shop served over HTTP that is no `shop-mgmt sandbox` process (no control surface): what a live shop is.
    const sandbox = createSandbox({ clock: 'real', rateLimits: { perMinute: 10_000, perDay: null } });
    const server = await sandbox.listen();
    try {
      const key = sandbox.createKey();
      const env = { SHOP_API_KEY: key, SHOP_API_BASE_URL: server.url };
      const db = join(suite.scratch(), 'live.db');
      const refused = await suite.cli.run(
        ['sync', '--db', db, '--once', '--tables', 'range_reservation'],
        env,
      );
      expect(refused.code).toBe(2);
      const said = refused.stderr.join('\n');
      expect(said).toContain('--shop NAME');
      expect(said).toContain('one you choose');
      expect(said).toContain(new URL(server.url).host);
      expect([...refused.stdout, said].join('\n')).not.toContain(key);
      expect(existsSync(db)).toBe(false);

      // The same shop with a name of the partner's syncs under that name.
      const named = await suite.cli.run(
        ['sync', '--db', db, '--once', '--tables', 'range_reservation', '--shop', 'north-store'],
        env,
        120_000,
      );
      expect(named.code, named.stderr.join('\n')).toBe(0);
      const database = await openSyncDatabase(db);
      try {
        const names = await database.all<{ shop: string }>('SELECT DISTINCT "shop" FROM "range_reservation"');
        expect(names).toEqual([{ shop: 'north-store' }]);
      } finally {
        await database.close();
      }
    } finally {
      await server.close();
    }
  });
});
