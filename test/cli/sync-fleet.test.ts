// `shop-mgmt sync --shops FILE` and `shop-mgmt sync status` as their own processes, against two
// `shop-mgmt sandbox` processes: --once syncs every shop and exits 1 when one is not current (a key the
// shop refuses), status prints each shop's line (--json lines carry shop and state), --check exits 1 while
// a shop is paused, and the live fleet receives webhooks on /webhooks/<shop> until SIGTERM.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { openSyncDatabase } from '../../src/sync/engine/database.js';
import { compareWithApi, totals } from '../sync/engine/support.js';
import { cliSuite, startSandbox } from './helpers.js';

const suite = cliSuite('sync-fleet');

describe('sync --shops and sync status', () => {
  it('syncs every shop, says which one is not current, and --check fails on it', async () => {
    const one = await startSandbox(suite.cli, ['--seed', '1']);
    const two = await startSandbox(suite.cli, ['--seed', '2']);
    const registry = join(suite.scratch(), 'shops.json');
    const db = join(suite.scratch(), 'fleet.db');
    const write = (shops: object[]) => writeFileSync(registry, JSON.stringify({ shops }), { mode: 0o600 });
    write([
      { name: 'north', apiKey: one.key, baseUrl: one.url },
      { name: 'south', apiKey: two.key, baseUrl: two.url },
    ]);
    const first = await suite.cli.run(
      ['sync', '--shops', registry, '--db', db, '--once', '--json'],
      {},
      60_000,
    );
    // Nothing on stderr but Node's own note where better-sqlite3 is absent and node:sqlite stands in.
    expect(first.stderr.filter((line) => !/ExperimentalWarning|--trace-warnings/.test(line))).toEqual([]);
    expect(first.code).toBe(0);
    const done = first.records().filter((record) => record.event === 'done');
    expect(done.map((record) => [record.shop, record.state])).toEqual([
      ['north', 'current'],
      ['south', 'current'],
    ]);
    const database = await openSyncDatabase(db);
    try {
      for (const [name, shop] of [
        ['north', one],
        ['south', two],
      ] as const) {
        const client = new ShopClient({ apiKey: shop.key, baseUrl: shop.url, maxRetries: 0 });
        const sum = totals(await compareWithApi(client, database, name));
        expect(sum.api).toBeGreaterThan(50);
        expect({ ...sum, api: 0 }).toEqual({ api: 0, lost: 0, stale: 0, extra: 0 });
      }
    } finally {
      await database.close();
    }
    const healthy = await suite.cli.run(['sync', 'status', '--db', db, '--check']);
    expect(healthy.code).toBe(0);
    expect(healthy.stdout[0]).toMatch(/^SHOP\s+STATE/);
    expect(healthy.stdout.filter((line) => /^(north|south)\s+current/.test(line))).toHaveLength(2);

    // A key the shop refuses: that shop is paused, the other still syncs, and the run exits 1.
    write([
      { name: 'north', apiKey: one.key, baseUrl: one.url },
      { name: 'south', apiKey: `${two.key.slice(0, -4)}0000`, baseUrl: two.url },
    ]);
    const second = await suite.cli.run(
      ['sync', '--shops', registry, '--db', db, '--once', '--json'],
      {},
      60_000,
    );
    expect(second.code).toBe(1);
    const states = second
      .records()
      .filter((record) => record.event === 'done')
      .map((record) => [record.shop, record.state, record.reason]);
    expect(states).toEqual([
      ['north', 'current', null],
      ['south', 'paused', 'key_revoked'],
    ]);
    expect(second.stdout.join('\n')).not.toContain(two.key.slice(8, -4));
    const status = await suite.cli.run(['sync', 'status', '--db', db, '--json']);
    expect(status.code).toBe(0);
    expect(status.records().map((line) => [line.shop, line.state, line.reason])).toEqual([
      ['north', 'current', null],
      ['south', 'paused', 'key_revoked'],
    ]);
    const check = await suite.cli.run(['sync', 'status', '--db', db, '--check']);
    expect(check.code).toBe(1);
    expect(check.stderr.join('\n')).toContain('south');
  }, 180_000);

  it('runs live with one webhook entrance until SIGTERM', async () => {
    const one = await startSandbox(suite.cli, ['--seed', '3']);
    const registry = join(suite.scratch(), 'live.json');
    const db = join(suite.scratch(), 'live.db');
    writeFileSync(
      registry,
      JSON.stringify({
        shops: [
          { name: 'east', apiKey: one.key, baseUrl: one.url, webhookSecrets: ['whsec_live_fleet_secret'] },
        ],
      }),
      { mode: 0o600 },
    );
    const sync = suite.cli.start(['sync', '--shops', registry, '--db', db, '--listen', '0', '--json']);
    const listening = await sync.until(
      () => sync.records().find((record) => record.event === 'listening'),
      30_000,
    );
    await sync.until(
      () => sync.records().find((record) => record.event === 'shop' && record.state === 'current'),
      60_000,
    );
    const wrong = await fetch(`${listening.url}/webhooks/west`, { method: 'POST', body: '{}' });
    expect(wrong.status).toBe(404);
    const unsigned = await fetch(`${listening.url}/webhooks/east`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(400);
    expect(await sync.stop('SIGTERM')).toBe(0);
  }, 120_000);
});
