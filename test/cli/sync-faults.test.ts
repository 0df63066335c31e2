// `shop-mgmt sync` as its own process, meeting what partners meet: Ctrl-C or SIGTERM in a `--once` pass, a
// busy --listen port, a --db it cannot use, a dry run against a shop without a rate limit. Each ends with
// the exit code of docs/cli.md's table and says why; none leaves a run row `running` or writes on a dry run.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSyncDatabase } from '../../src/sync/engine/database.js';
import { signPayload } from '../../src/webhooks/sign.js';
import { postgresDatabase, postgresUrl } from '../sync/engine/support.js';
import { CliRunner, cliSuite, startSandbox } from './helpers.js';

const suite = cliSuite('sync-faults');
// The shops of a describe block outlive its tests (the suite's runner ends its processes after each test).
const shops = new CliRunner(() => suite.cli.binPath());
afterAll(() => shops.killAll());

/** Stops `sync --once` with `signal` in its backfill (after its first stream); its exit code and run rows. */
async function interruptOnce(
  db: string,
  env: Record<string, string>,
  signal: 'SIGINT' | 'SIGTERM',
): Promise<{ code: number | null; runs: Record<string, unknown>[]; stderr: string }> {
  const sync = suite.cli.start(['sync', '--db', db, '--shop', 'stop', '--once', '--json'], env);
  await sync.until(() => sync.records().some((record) => record.event === 'stream'), 60_000);
  const code = await sync.stop(signal);
  const database = await openSyncDatabase(db);
  try {
    const runs = await database.all<Record<string, unknown>>(
      'SELECT "kind", "status", "error", "finished_at" FROM "sync_runs" WHERE "shop" = ?',
      ['stop'],
    );
    return { code, runs, stderr: sync.stderr.join('\n') };
  } finally {
    await database.close();
  }
}

describe('sync --once stopped by a signal', () => {
  let shop: Awaited<ReturnType<typeof startSandbox>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    // A shop whose backfill takes many pages: the signal lands while the pass is under way.
    shop = await startSandbox(shops, ['--records', 'reservations=20000']);
    env = { SHOP_API_KEY: shop.key, SHOP_API_BASE_URL: shop.url };
  }, 90_000);
  afterAll(async () => {
    await shop?.process.stop();
  });

  it('SIGTERM on SQLite: exits 143 with its run row `interrupted`, not `running`', async () => {
    const stopped = await interruptOnce(join(suite.scratch(), 'term.db'), env, 'SIGTERM');
    expect(stopped.code, stopped.stderr).toBe(143);
    expect(stopped.runs).toHaveLength(1);
    expect(stopped.runs[0]).toMatchObject({
      kind: 'once',
      status: 'interrupted',
      error: 'interrupted by SIGTERM',
    });
    expect(stopped.runs[0]!.finished_at).not.toBeNull();
    expect(stopped.stderr).toMatch(/interrupted by SIGTERM/);
  }, 120_000);

  it.runIf(postgresUrl)(
    'Ctrl-C on Postgres: exits 130 with its run row `interrupted`',
    async () => {
      const made = await postgresDatabase();
      try {
        const stopped = await interruptOnce(made.url, env, 'SIGINT');
        expect(stopped.code, stopped.stderr).toBe(130);
        expect(stopped.runs).toHaveLength(1);
        expect(stopped.runs[0]).toMatchObject({
          kind: 'once',
          status: 'interrupted',
          error: 'interrupted by SIGINT',
        });
        expect(stopped.runs[0]!.finished_at).not.toBeNull();
      } finally {
        await made.cleanup();
      }
    },
    120_000,
  );
});

describe('sync without --once stopped in its first pass', () => {
  let shop: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    shop = await startSandbox(shops, ['--records', 'reservations=20000']);
  }, 90_000);

  it('SIGTERM in the backfill is its normal end: exit 0, the run row `interrupted`', async () => {
    const db = join(suite.scratch(), 'live-term.db');
    const env = { SHOP_API_KEY: shop.key, SHOP_API_BASE_URL: shop.url };
    const sync = suite.cli.start(['sync', '--db', db, '--shop', 'stop', '--json'], env);
    await sync.until(() => sync.records().some((record) => record.event === 'stream'), 60_000);
    expect(await sync.stop('SIGTERM')).toBe(0);
    expect(sync.records().some((record) => record.event === 'done')).toBe(false);
    const database = await openSyncDatabase(db);
    try {
      const runs = await database.all('SELECT "kind", "status", "error" FROM "sync_runs" WHERE "shop" = ?', [
        'stop',
      ]);
      expect(runs).toEqual([{ kind: 'once', status: 'interrupted', error: 'interrupted by SIGTERM' }]);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('with --listen, the port is bound before the backfill and takes deliveries from then on', async () => {
    const db = join(suite.scratch(), 'listen-first.db');
    const secret = 'whsec_bound_before_backfill';
    const env = { SHOP_API_KEY: shop.key, SHOP_API_BASE_URL: shop.url, SHOP_WEBHOOK_SECRET: secret };
    const sync = suite.cli.start(['sync', '--db', db, '--shop', 'bound', '--listen', '0', '--json'], env);
    const url = await sync.until(
      () => sync.records().find((record) => record.event === 'bound')?.url as string | undefined,
      60_000,
    );
    // Taken before the backfill is done: the inbox keeps it, the worker applies it after.
    expect(sync.records().map((record) => record.event)).not.toContain('listening');
    const body = JSON.stringify({
      id: 'evt_bound_1',
      object: 'event',
      type: 'ping',
      api_version: '2026-09-24',
      created_at: new Date().toISOString(),
      livemode: false,
      data: { object: { object: 'ping' } },
    });
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Service-Event': 'ping',
        'Service-Event-Id': 'evt_bound_1',
        'Service-Signature': await signPayload({ body, secret }),
      },
      body,
    });
    expect(answer.status).toBe(200);
    await sync.until(() => sync.records().some((record) => record.event === 'listening'), 90_000);
    const order = sync.records().map((record) => record.event);
    expect(order.indexOf('bound')).toBeLessThan(order.indexOf('stream'));
    expect(order.indexOf('done')).toBeLessThan(order.indexOf('listening'));
    expect(await sync.stop('SIGTERM')).toBe(0);
  }, 150_000);
});

describe('sync --listen on a port in use', () => {
  it('fails at once with exit 3, naming the port, before it syncs anything', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const db = join(suite.scratch(), 'busy.db');
      // No shop in the environment: the built-in sandbox, which the old order backfilled before binding.
      const busy = await suite.cli.run(['sync', '--db', db, '--listen', String(port), '--json'], {
        SHOP_WEBHOOK_SECRET: 'whsec_busy_port_secret',
      });
      expect(busy.code).toBe(3);
      expect(busy.stderr.join('\n')).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
      expect(busy.records().filter((record) => record.event === 'stream')).toEqual([]);
      expect(existsSync(db)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

describe('sync --tables with a typo', () => {
  it('is a usage error (exit 2) naming the nearest table, before anything is read', async () => {
    const file = join(suite.scratch(), 't.db');
    const typo = await suite.cli.run(['sync', '--db', file, '--tables', 'range_reservaton', '--once']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.join('\n')).toMatch(
      /no sync table "range_reservaton"; did you mean range_reservation\?/,
    );
    expect(existsSync(file)).toBe(false);
  });
});

describe('sync --db it cannot use', () => {
  it('an unsupported scheme is a usage error (exit 2)', async () => {
    const mysql = await suite.cli.run(['sync', '--db', 'mysql://app@db/shop', '--once']);
    expect(mysql.code).toBe(2);
    expect(mysql.stderr.join('\n')).toMatch(
      /--db takes a SQLite file path or a postgres:\/\/ URL; mysql:\/\//,
    );
  });

  it('a folder that does not exist, or a path through a file, says so (not "install better-sqlite3")', async () => {
    const missing = await suite.cli.run(['sync', '--db', join(suite.scratch(), 'nope', 'shop.db'), '--once']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.join('\n')).toMatch(/the folder .*nope does not exist/);
    expect(missing.stderr.join('\n')).not.toMatch(/better-sqlite3/);

    const file = join(suite.scratch(), 'plain-file');
    writeFileSync(file, 'not a folder');
    const throughFile = await suite.cli.run(['sync', '--db', join(file, 'shop.db'), '--once']);
    expect(throughFile.code).toBe(2);
    expect(throughFile.stderr.join('\n')).toMatch(/plain-file is not a folder|ENOTDIR/);
    expect(throughFile.stderr.join('\n')).not.toMatch(/better-sqlite3/);

    const folder = join(suite.scratch(), 'a-folder');
    mkdirSync(folder);
    const isFolder = await suite.cli.run(['sync', '--db', folder, '--once']);
    expect(isFolder.code).toBe(2);
    expect(isFolder.stderr.join('\n')).toMatch(/a-folder is a folder, not a SQLite file/);
  });
});

describe('sync --dry-run', () => {
  let shop: Awaited<ReturnType<typeof startSandbox>>;
  let env: Record<string, string>;
  beforeAll(async () => {
    shop = await startSandbox(shops, ['--rate-limit', 'off']);
    env = { SHOP_API_KEY: shop.key, SHOP_API_BASE_URL: shop.url };
  }, 90_000);
  afterAll(async () => {
    await shop?.process.stop();
  });

  it('makes no SQLite file, and says "no rate limit" for a shop without one', async () => {
    const folder = join(suite.scratch(), 'dry');
    mkdirSync(folder);
    const db = join(folder, 'dry.db');
    const json = await suite.cli.run(['sync', '--db', db, '--dry-run', '--max-share', '50%', '--json'], env);
    expect(json.code, json.stderr.join('\n')).toBe(0);
    expect(readdirSync(folder)).toEqual([]);
    const total = json.records().find((record) => record.event === 'estimate-total');
    expect(total).toMatchObject({ requestsPerMinute: null, minutes: null, rateLimit: 'none' });
    expect(total!.calls).toBeGreaterThanOrEqual(17);

    const text = await suite.cli.run(['sync', '--db', db, '--dry-run', '--max-share', '50%'], env);
    expect(text.code).toBe(0);
    const line = text.stdout.find((output) => output.startsWith('backfill:'));
    expect(line).toMatch(/at no rate limit in effect\. Nothing written\.$/);
    expect(text.stdout.join('\n')).not.toMatch(/\d{7,}/);
    expect(readdirSync(folder)).toEqual([]);
  });

  it.runIf(postgresUrl)('makes no table in a Postgres database', async () => {
    const made = await postgresDatabase();
    try {
      const dry = await suite.cli.run(['sync', '--db', made.url, '--dry-run'], env);
      expect(dry.code, dry.stderr.join('\n')).toBe(0);
      const client = new pg.Client({ connectionString: made.url });
      await client.connect();
      try {
        const tables = await client.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
        );
        expect(tables.rows).toEqual([]);
      } finally {
        await client.end();
      }
    } finally {
      await made.cleanup();
    }
  });
});
