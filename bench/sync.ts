// Sync engine figures (issue 18), against the sandbox over HTTP on loopback:
// 1. Backfill of 50,000 reservations (plus the seeded shop's other streams) with the rate limit lifted:
//    records/s of ShopSync.backfill() into a fresh SQLite file (and Postgres when installed), as a ratio to
//    a bare walk of the same lists that writes nothing. Alternating runs; median and range.
// 2. With the rate limit on (120 a minute): the share of the cap the backfill uses alone (maxShare 100%),
//    and with a second process of the partner's own calls sharing a Redis rate-limit store (sync at 50%),
//    and the 429s the sandbox answered.
//   npx tsx bench/sync.ts [--runs 3] [--seconds 60] [--only throughput|share]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ShopClient } from '../src/client.js';
import type { Operation } from '../src/core/api/operation.js';
import { RedisRateLimitStore } from '../src/core/rate-limit/rate-limit-store-redis.js';
import { operations } from '../src/generated/operations.js';
import { SYNC_TABLES } from '../src/generated/sync-schema.js';
import { ShopSync } from '../src/sync/engine/shop-sync.js';
import { createSandbox } from '../src/testing/sandbox.js';
import { listen } from '../src/testing/server.js';
import { hasPostgresServer, startOwnPostgres } from '../test/setup/postgres-server.js';
import { hasRedisServer, startOwnRedis } from '../test/setup/redis-server.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const RUNS = flag('runs', 3);
const SECONDS = flag('seconds', 60);
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;
const QUERY: Record<string, Record<string, unknown>> = {
  'range.sessions.list': { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' },
  'products.list': { include: 'inventory' },
};

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${median.toFixed(2)} (range ${sorted[0]!.toFixed(2)}-${sorted.at(-1)!.toFixed(2)}, n=${values.length})`;
}

async function bareWalk(client: ShopClient): Promise<number> {
  let rows = 0;
  for (const table of SYNC_TABLES) {
    if (!table.operation) continue;
    const operation = (operations as Record<string, Operation>)[table.operation] as Operation & {
      readonly pagination: 'cursor';
    };
    for await (const page of client
      .list(operation, { query: { ...QUERY[table.operation], limit: 200 } })
      .pages()) {
      rows += page.data.length;
    }
  }
  return rows;
}

async function throughput(): Promise<void> {
  const sandbox = createSandbox({
    records: { reservations: 50_000 },
    rateLimits: { perMinute: 10_000_000, perDay: null },
  });
  const server = await sandbox.listen();
  const client = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url });
  const postgres = hasPostgresServer() ? await startOwnPostgres() : null;
  const targets: { name: string; make: (run: number) => { db: string; cleanup: () => void } }[] = [
    {
      name: 'sqlite',
      make: () => {
        const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'));
        return { db: join(dir, 'shop.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
      },
    },
  ];
  if (postgres) {
    targets.push({
      name: 'postgres',
      make: () => ({ db: postgres.url, cleanup: () => undefined }),
    });
  }
  await bareWalk(client); // warm-up
  for (const target of targets) {
    const ratios: number[] = [];
    const syncRates: number[] = [];
    const bareRates: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let start = performance.now();
      const rows = await bareWalk(client);
      const bare = rows / ((performance.now() - start) / 1000);
      const { db, cleanup } = target.make(run);
      const sync = new ShopSync({ client, db, shop: `bench-${run}-${Date.now()}` });
      await sync.migrate();
      start = performance.now();
      const result = await sync.backfill();
      const rate = result.rows / ((performance.now() - start) / 1000);
      await sync.close();
      cleanup();
      ratios.push(rate / bare);
      syncRates.push(rate);
      bareRates.push(bare);
      console.log(
        `  ${target.name} run ${run + 1}: ${result.rows} rows; sync ${rate.toFixed(0)}/s, bare walk ${bare.toFixed(0)}/s, ratio ${(rate / bare).toFixed(2)}; load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
    console.log(
      `${target.name}: sync/bare ratio ${summary(ratios)}; sync rows/s ${summary(syncRates)}; bare rows/s ${summary(bareRates)}`,
    );
  }
  await postgres?.stop();
  await server.close();
}

async function share(): Promise<void> {
  if (!hasRedisServer()) {
    console.log('share: redis-server not installed; skipped');
    return;
  }
  const redis = await startOwnRedis();
  // The Established plan's order of magnitude (it is 60): a rate the engine's reads keep up with on a loaded
  // machine, so the figure is the pacing's, not the page latency's.
  const limit = 120;
  for (const scenario of ['sync alone at 100%', 'sync at 50% + partner process at 100%'] as const) {
    const sandbox = createSandbox({
      records: { reservations: 50_000 },
      rateLimits: { perMinute: limit, perDay: null },
      clock: 'real',
    });
    const statuses = new Map<number, number>();
    const server = await listen(async (request, info) => {
      const response = await sandbox.handle(request, info);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      return response;
    });
    const client = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url, maxRetries: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'bench-share-'));
    const connection = new Redis(redis.url);
    await connection.flushall();
    const store = new RedisRateLimitStore(connection);
    const partnered = scenario.startsWith('sync at 50%');
    // Start on a minute boundary of the sandbox's windows, so the count covers whole windows.
    await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 50));
    const partner = partnered
      ? spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            join(import.meta.dirname, 'sync-partner.ts'),
            server.url,
            sandbox.createKey(),
            redis.url,
            String(limit * 0.97),
          ],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        )
      : null;
    const sync = new ShopSync({
      client,
      db: join(dir, 'shop.db'),
      maxShare: partnered ? 0.5 : 1,
      rateLimit: { store, key: 'shop' },
    });
    const started = Date.now();
    const running = sync.backfill().catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    const elapsed = (Date.now() - started) / 1000;
    let partnerOut = '';
    if (partner) {
      partner.stdout!.on('data', (chunk) => {
        partnerOut += chunk;
      });
      partner.kill('SIGTERM');
      await new Promise((resolve) => partner.once('exit', resolve));
    }
    const partnerCalls = partnerOut ? (JSON.parse(partnerOut) as { ok: number }).ok : 0;
    const cap = (limit * elapsed) / 60;
    console.log(
      `share, ${scenario}: ${total} requests in ${elapsed.toFixed(1)}s = ${((100 * total) / cap).toFixed(1)}% of the cap (${limit}/min); sync ${total - partnerCalls} (${((100 * (total - partnerCalls)) / cap).toFixed(1)}%), partner ${partnerCalls}; 429s: ${statuses.get(429) ?? 0}; load ${loadavg()[0]!.toFixed(1)}`,
    );
    // Stop the backfill: close the server under it and wait for its error.
    await server.close();
    await running;
    await sync.close();
    connection.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
  await redis.stop();
}

console.log(
  `bench/sync: node ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
if (ONLY !== 'share') await throughput();
if (ONLY !== 'throughput') await share();
console.log(
  `load average at the end ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
