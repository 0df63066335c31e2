// The README's main job as partners run it: the built bin's `sync` (no --once, no --listen) as its own
// process, against a `shop-mgmt sandbox` in another process, on SQLite and on Postgres. It keeps reading the
// feed every --interval until SIGTERM, applies a change made in the shop while it runs, and exits 0.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { openSyncDatabase } from '../../src/sync/engine/database.js';
import { postgresDatabase, postgresUrl } from '../sync/engine/support.js';
import { type CliProcess, cliSuite, startSandbox } from './helpers.js';

const suite = cliSuite('sync-live');

/** Feed reads of the live loop so far: one `stream` record for `events` each, after the first pass's `done`. */
function feedReads(sync: CliProcess): number {
  const records = sync.records();
  const first = records.findIndex((record) => record.event === 'done' && record.phase === 'once');
  if (first < 0) return 0;
  return records.slice(first + 1).filter((record) => record.event === 'stream' && record.stream === 'events')
    .length;
}

/** Polls `read` until it gives `want`, while `sync` must stay up; fails with the output after `ms`. */
async function untilRow(
  sync: CliProcess,
  read: () => Promise<string | undefined>,
  want: string,
  ms = 20_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  let seen: string | undefined;
  for (;;) {
    seen = await read();
    if (seen === want) return;
    if (sync.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(
        `row is ${String(seen)}, wanted ${want}; exit ${sync.child.exitCode}\nstdout:\n${sync.stdout.join('\n')}\nstderr:\n${sync.stderr.join('\n')}`,
      );
    }
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

async function mainJob(db: string, intervalSeconds: number, reads: number): Promise<void> {
  const receiver = await suite.receiver();
  // The feed records the types an endpoint subscribes to: the shop forwards every type to a receiver.
  const shop = await startSandbox(suite.cli, ['--forward-to', receiver.url]);
  const client = new ShopClient({ apiKey: shop.key, baseUrl: shop.url });
  const base = Date.now() + 3 * 86_400_000;
  const starts = new Date(base - (base % 3_600_000)).toISOString();
  const ends = new Date(base - (base % 3_600_000) + 3_600_000).toISOString();
  const [free] = await client.range.availability.list({ starts_at: starts, ends_at: ends, party_size: 1 });
  expect(free).toBeDefined();
  const booked = await client.range.reservations.create({
    resource_ids: [free!.resource.id],
    starts_at: starts,
    ends_at: ends,
    party_size: 1,
    customer: { email: 'live.sync@example.com', first_name: 'Live', last_name: 'Sync' },
  });
  expect(booked.status).not.toBe('cancelled');

  const env = { SHOP_API_KEY: shop.key, SHOP_API_BASE_URL: shop.url };
  const sync = suite.cli.start(
    ['sync', '--db', db, '--shop', 'live', '--interval', String(intervalSeconds), '--json'],
    env,
  );
  // Feed reads after the first pass: up for longer than one interval (the old loop exited 13 before).
  await sync.until(() => feedReads(sync) >= reads, 60_000);
  expect(sync.child.exitCode).toBe(null);
  const database = await openSyncDatabase(db);
  try {
    const status = async () =>
      (
        await database.all<{ status: string }>(
          'SELECT "status" FROM "range_reservation" WHERE "shop" = ? AND "id" = ?',
          ['live', booked.id],
        )
      )[0]?.status;
    expect(await status()).toBe(booked.status);
    // A change in the shop while sync runs: the row follows within the next feed read.
    await client.range.reservations.cancel(booked.id, { reason: 'live sync test' });
    await untilRow(sync, status, 'cancelled', 60_000);
  } finally {
    await database.close();
  }
  expect(sync.child.exitCode).toBe(null);
  expect(await sync.stop('SIGTERM')).toBe(0);
  expect(sync.stderr.join('\n')).toMatch(/stopped/);
  await shop.process.stop();
}

describe('shop-mgmt sync against a shop in another process (the main job)', () => {
  it('keeps going on SQLite until SIGTERM and applies a change made meanwhile', {
    timeout: 90_000,
  }, async () => {
    await mainJob(join(suite.scratch(), 'live.db'), 1, 3);
  });

  it.runIf(postgresUrl)(
    'keeps going on Postgres until SIGTERM and applies a change made meanwhile',
    { timeout: 90_000 },
    async () => {
      const made = await postgresDatabase();
      try {
        // 11 s: past the pool's 10 s idle timeout, after which the old loop exited 13 on Postgres.
        await mainJob(made.url, 11, 1);
      } finally {
        await made.cleanup();
      }
    },
  );
});
