// ShopFleet with N shops (default 200) in this process, against N sandbox shops in another process
// (bench/fleet-shops-server.ts), Established limits (60 a minute each). Prints, over a window of the
// backfill where every shop is still walking: the aggregate call rate against the sum of the shops' caps,
// 429s, each shop's share of its cap (fairness: min/median/max), and this process's RSS every 5 s.
// Pages of 20 records (the fleet's pageSize) and 2,000 extra reservations a shop keep every shop walking
// through the window (a seeded shop alone is read in about 17 calls).
// Run: npx tsx bench/fleet-bench.ts [shops=200] [seconds=60] [db=<tmp sqlite> | postgres://...]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ShopFleet } from '../src/sync/fleet/fleet.js';
import { loadShops } from '../src/sync/fleet/registry.js';

const count = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 60);
const db = process.argv[4] ?? join(mkdtempSync(join(tmpdir(), 'fleet-bench-')), 'fleet.db');

const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(import.meta.dirname, 'fleet-shops-server.ts'), String(count)],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
const first = await new Promise<string>((resolve) => {
  createInterface({ input: child.stdout! }).once('line', resolve);
});
const registry = JSON.parse(first) as { shops: { name: string; apiKey: string; baseUrl: string }[] };
const shops = await loadShops(registry.shops);
const calls = new Map<string, number[]>();
let tooMany = 0;
const fleet = new ShopFleet({
  shops,
  db,
  pageSize: 20,
  client: {
    hooks: {
      afterResponse: [
        (request, options) => {
          if (options.context.status === 429) tooMany++;
          const shop = registry.shops.find((entry) => request.url.startsWith(entry.baseUrl))?.name ?? '?';
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
const rss: number[] = [];
const heap: number[] = [];
const sampler = setInterval(() => {
  const memory = process.memoryUsage();
  rss.push(memory.rss / 1e6);
  heap.push(memory.heapUsed / 1e6);
}, 5000);
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
clearInterval(sampler);
// The window: from 10 s in (every shop has had its first answer and is paced) to the end.
const from = started + 10_000;
const to = performance.now();
const minutes = (to - from) / 60_000;
const perShop = registry.shops.map(
  (entry) => (calls.get(entry.name) ?? []).filter((at) => at >= from && at <= to).length / minutes,
);
const total = perShop.reduce((sum, rate) => sum + rate, 0);
const sorted = [...perShop].sort((a, b) => a - b);
const lines = await fleet.status();
const current = lines.filter((line) => line.state === 'current').length;
await fleet.stop();
await running;
child.stdin!.end();
const steady = rss.slice(Math.floor(rss.length / 2));
console.log(
  JSON.stringify(
    {
      shops: count,
      windowSeconds: Math.round((to - from) / 1000),
      aggregateCallsPerMinute: Math.round(total),
      sumOfCaps: count * 60,
      shareOfCaps: Number((total / (count * 60)).toFixed(3)),
      http429: tooMany,
      perShopCallsPerMinute: {
        min: Number(sorted[0]!.toFixed(1)),
        median: Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1)),
        max: Number(sorted.at(-1)!.toFixed(1)),
      },
      shopsCurrentAtEnd: current,
      rssMb: { samples: rss.map((value) => Math.round(value)), steadyMax: Math.round(Math.max(...steady)) },
      heapUsedMb: heap.map((value) => Math.round(value)),
      eventLag: 'not measured',
    },
    null,
    2,
  ),
);
process.exit(0);
