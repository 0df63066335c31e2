// ShopFleet with N shops (default 200) in this process, against N sandbox shops in another process
// (bench/fleet-shops-server.ts, real clocks), Established limits (60 a minute each). Prints:
// - over a window of the backfill where every shop is still walking: the aggregate call rate against the
//   sum of the shops' caps, 429s, each shop's share of its cap (fairness: min/median/max), and this
//   process's RSS every 5 s. Pages of 20 records (the fleet's pageSize) and 2,000 extra reservations a shop
//   keep every shop walking through the window (a seeded shop alone is read in about 17 calls).
// - then, once every shop is current: the event lag, from a change in a sandbox shop (a sale rung up at its
//   register, `changes` a second over random shops) to its event's commit in the database, through the
//   shop's webhook to the fleet's entrance (`listen`), its inbox and its drain: p50/p99/max over the window.
//   The time of the change is the event's created_at (the sandbox's real clock, this machine's); the commit
//   is the end of the fleet's transaction that applied it.
// Run: npx tsx bench/fleet-bench.ts [shops=200] [seconds=60] [db=<tmp sqlite> | postgres://...]
//        [lagSeconds=60] [changes=5]

import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openSyncDatabase, type SyncDatabase } from '../src/sync/engine/database.js';
import { SYNC_CHANNEL, type SyncDiagnosticsMessage } from '../src/sync/engine/diagnostics.js';
import { ShopFleet } from '../src/sync/fleet/fleet.js';
import { loadShops } from '../src/sync/fleet/registry.js';

const count = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 60);
const target = process.argv[4] || join(mkdtempSync(join(tmpdir(), 'fleet-bench-')), 'fleet.db');
const lagSeconds = Number(process.argv[5] ?? 60);
const changesPerSecond = Number(process.argv[6] ?? 5);

const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(import.meta.dirname, 'fleet-shops-server.ts'), String(count)],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const output = createInterface({ input: child.stdout! });
const first = await new Promise<string>((resolve) => output.once('line', resolve));
/** Events the changes made (the server answers each change with its count). */
let made = 0;
output.on('line', (line) => {
  made += (JSON.parse(line) as { events: number }).events;
});
const registry = JSON.parse(first) as {
  shops: { name: string; apiKey: string; baseUrl: string; webhookSecrets: string[] }[];
};
const shops = await loadShops(registry.shops);
const shopByOrigin = new Map(registry.shops.map((entry) => [new URL(entry.baseUrl).origin, entry.name]));

// Each applied event's lag, taken when the transaction that applied it has committed.
const inTransaction = new AsyncLocalStorage<string[]>();
const lags: number[] = [];
let measuring = false;
subscribe(SYNC_CHANNEL, (message) => {
  const sync = message as SyncDiagnosticsMessage;
  if (sync.type === 'event') inTransaction.getStore()?.push(sync.createdAt);
});
const opened = await openSyncDatabase(target);
const db: SyncDatabase = {
  dialect: opened.dialect,
  all: (sql, params) => opened.all(sql, params),
  run: (sql, params) => opened.run(sql, params),
  transaction: async (work) => {
    const applied: string[] = [];
    const result = await inTransaction.run(applied, () => opened.transaction(work));
    const now = Date.now();
    if (measuring) for (const createdAt of applied) lags.push(now - Date.parse(createdAt));
    return result;
  },
  close: () => opened.close(),
} as SyncDatabase;

const calls = new Map<string, number[]>();
let tooMany = 0;
let entrance = '';
const fleet = new ShopFleet({
  shops,
  db,
  pageSize: 20,
  listen: 0,
  onListening: (url) => {
    entrance = url;
  },
  client: {
    hooks: {
      afterResponse: [
        (request, options) => {
          if (options.context.status === 429) tooMany++;
          const shop = shopByOrigin.get(new URL(request.url).origin) ?? '?';
          const list = calls.get(shop) ?? [];
          calls.set(shop, list);
          list.push(performance.now());
        },
      ],
    },
  },
});
const started = performance.now();
const running = fleet.run();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
while (!entrance) await sleep(50);
child.stdin!.write(`endpoints ${entrance}\n`);
const rss: number[] = [];
const heap: number[] = [];
const loads: number[] = [];
const sampler = setInterval(() => {
  const memory = process.memoryUsage();
  rss.push(memory.rss / 1e6);
  heap.push(memory.heapUsed / 1e6);
  loads.push(loadavg()[0]!);
}, 5000);
await sleep(seconds * 1000);
// The window: from 10 s in (every shop has had its first answer and is paced) to the end.
const from = started + 10_000;
const to = performance.now();
const minutes = (to - from) / 60_000;
const perShop = registry.shops.map(
  (entry) => (calls.get(entry.name) ?? []).filter((at) => at >= from && at <= to).length / minutes,
);
const total = perShop.reduce((sum, rate) => sum + rate, 0);
const sorted = [...perShop].sort((a, b) => a - b);
const tooManyInWindow = tooMany;
const rateRss = [...rss];

// The event lag, once every shop is current (before its first backfill ends, a shop's deliveries wait).
const currentBy = performance.now() + 15 * 60_000;
let current = 0;
// lagSeconds 0: the rate window only.
for (; lagSeconds > 0; ) {
  current = (await fleet.status()).filter((line) => line.state === 'current').length;
  if (current === count || performance.now() > currentBy) break;
  await sleep(2000);
}
let changes = 0;
let lag: Record<string, number> | string = `not measured: ${current} of ${count} shops current`;
if (lagSeconds > 0 && current === count) {
  measuring = true;
  const lagUntil = performance.now() + lagSeconds * 1000;
  while (performance.now() < lagUntil) {
    child.stdin!.write(`change ${1 + Math.floor(Math.random() * count)}\n`);
    changes++;
    await sleep(1000 / changesPerSecond);
  }
  // The last changes' deliveries: at most 10 s more.
  const settleBy = performance.now() + 10_000;
  while (lags.length < made && performance.now() < settleBy) await sleep(200);
  measuring = false;
  const byLag = [...lags].sort((a, b) => a - b);
  const at = (q: number) => byLag[Math.min(byLag.length - 1, Math.floor(q * byLag.length))]!;
  lag =
    byLag.length === 0
      ? 'no event applied'
      : {
          changes,
          events: made,
          applied: byLag.length,
          p50Ms: at(0.5),
          p99Ms: at(0.99),
          maxMs: byLag.at(-1)!,
        };
}
clearInterval(sampler);
await fleet.stop();
await running;
await opened.close();
child.stdin!.end();
const steady = rateRss.slice(Math.floor(rateRss.length / 2));
console.log(
  JSON.stringify(
    {
      shops: count,
      loadAverage1m: { min: Math.min(...loads), max: Math.max(...loads) },
      windowSeconds: Math.round((to - from) / 1000),
      aggregateCallsPerMinute: Math.round(total),
      sumOfCaps: count * 60,
      shareOfCaps: Number((total / (count * 60)).toFixed(3)),
      http429: tooManyInWindow,
      http429AfterWindow: tooMany - tooManyInWindow,
      perShopCallsPerMinute: {
        min: Number(sorted[0]!.toFixed(1)),
        median: Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1)),
        max: Number(sorted.at(-1)!.toFixed(1)),
      },
      rssMb: {
        samples: rss.map((value) => Math.round(value)),
        steadyMaxDuringWindow: Math.round(Math.max(...steady)),
        maxOverall: Math.round(Math.max(...rss)),
      },
      heapUsedMb: heap.map((value) => Math.round(value)),
      eventLag: lag,
    },
    null,
    2,
  ),
);
process.exit(0);
