/**
 * Receiving into the durable inbox, per adapter, against the memory dedupe store as the floor.
 *
 *   npx tsx bench/inbox.ts        (npm run bench:inbox)
 *
 * A receiver (`createWebhookHandler(...).node` behind `http.createServer`) on 127.0.0.1 gets signed deliveries
 * from a load generator in the same process (keep-alive, 16 at a time). Setups, rotated round by round so a
 * busy spell of the machine touches all of them alike:
 * - `floor`: the MemoryDedupeStore with an onEvent that does nothing (verify + claim + complete + answer);
 * - `memory`, `sqlite`, `postgres`, `redis`: the inbox (verify + write + answer), no worker running.
 * 1. Throughput: deliveries a second answered 200, BENCH_DELIVERIES (default 2000) per round.
 * 2. Workers: events a second processed by 4 workers (`inbox.work(handler, { concurrency: 4 })`) draining what
 *    the round wrote; the SQL adapters' handler writes one row through `tx`, in the done mark's transaction.
 * 3. Answer time at a steady 200 deliveries a second (BENCH_STEADY_S seconds, default 5) with the workers
 *    running: p50 and p99 of the time from sending to the whole answer.
 * Targets (issue 17): the SQLite inbox at least 0.5x the floor's deliveries a second; answer p99 under 50 ms at
 * 200 deliveries a second. Postgres and Redis are servers this script starts (test/setup/redis-server.ts,
 * test/setup/postgres-server.ts: no fsync on that Postgres); each is skipped when not installed.
 * Prints medians with min-max over BENCH_ROUNDS (default 5) and the load average before and after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { Inbox } from '../src/sync/inbox/inbox.js';
import { MemoryInboxStore } from '../src/sync/inbox/memory.js';
import { PostgresInboxStore } from '../src/sync/inbox/postgres.js';
import { RedisInboxStore } from '../src/sync/inbox/redis.js';
import { SqliteInboxStore } from '../src/sync/inbox/sqlite.js';
import type { InboxHandler, InboxStore } from '../src/sync/inbox/types.js';
import { createWebhookHandler, MemoryDedupeStore, signPayload } from '../src/webhooks/index.js';
import { hasPostgresServer, startOwnPostgres } from '../test/setup/postgres-server.js';
import { hasRedisServer, startOwnRedis } from '../test/setup/redis-server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2000);
const STEADY_S = Number(process.env.BENCH_STEADY_S ?? 5);
const CONCURRENCY = 16;
const secret = 'whsec_bench_inbox';

interface Setup {
  readonly name: string;
  /** A fresh receiver for a round; `inbox` is null for the floor. */
  make(round: number): Promise<{ inbox: Inbox | null; close: () => Promise<void> }>;
}

let counter = 0;
async function delivery(): Promise<{ body: string; headers: Record<string, string> }> {
  const id = `evt_bench_${process.pid}_${++counter}`;
  const body = JSON.stringify({
    id,
    object: 'event',
    type: 'inventory.changed',
    api_version: '2026-09-24',
    created_at: new Date().toISOString(),
    livemode: false,
    data: {
      object: { object: 'inventory_level', id: `lvl_${counter % 500}`, sku: 'SKU-1', on_hand: counter },
    },
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'service-event': 'inventory.changed',
      'service-event-id': id,
      'service-delivery-id': `dlv_${id}`,
      'service-attempt': '1',
      'service-signature': await signPayload({ body, secret }),
    },
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(
  port: number,
  { body, headers }: { body: string; headers: Record<string, string> },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function serve(inbox: Inbox | null): Promise<{ server: Server; port: number }> {
  const handler = inbox
    ? createWebhookHandler({ secret, inbox })
    : createWebhookHandler({ secret, dedupe: new MemoryDedupeStore(), onEvent: () => undefined });
  const server = createServer((req, res) => void handler.node(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Deliveries a second answered 200, `count` of them, `CONCURRENCY` at a time. */
async function throughput(port: number, count: number): Promise<number> {
  const prepared = await Promise.all(Array.from({ length: count }, () => delivery()));
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < prepared.length) {
        const status = await post(port, prepared[next++]!);
        if (status !== 200) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (failed > 0) console.log(`  (${failed} deliveries not answered 200)`);
  return count / seconds;
}

const workHandler: InboxHandler = async (event, { tx }) => {
  await tx?.execute('INSERT INTO bench_effects (event_id) VALUES (?)', [event.id]);
};

/** Events a second processed by 4 workers draining the inbox. */
async function drain(inbox: Inbox, expected: number): Promise<number> {
  const started = performance.now();
  const worker = inbox.work(workHandler, { concurrency: 4, pollMs: 5, onError: () => undefined });
  await worker.idle();
  await worker.stop();
  const seconds = (performance.now() - started) / 1000;
  return expected / seconds;
}

/** p50 and p99 answer times (ms) at a steady 200 deliveries a second, workers running. */
async function steady(port: number, inbox: Inbox | null): Promise<{ p50: number; p99: number }> {
  const count = 200 * STEADY_S;
  const prepared = await Promise.all(Array.from({ length: count }, () => delivery()));
  const worker = inbox?.work(workHandler, { concurrency: 4, pollMs: 5, onError: () => undefined });
  const times: number[] = [];
  const started = performance.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + i * 5;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = performance.now();
    sent.push(post(port, prepared[i]!).then(() => void times.push(performance.now() - at)));
  }
  await Promise.all(sent);
  await worker?.stop();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

async function sqlEffectsTable(store: InboxStore): Promise<void> {
  // Created through a handler's transaction, as a partner's own table would be by its migration.
  const inbox = new Inbox(store);
  await inbox.ready();
  await inbox.add({ id: `evt_setup_${Math.random()}` } as never);
  await inbox.runOnce(async (_event, { tx }) => {
    await tx?.execute('CREATE TABLE IF NOT EXISTS bench_effects (event_id TEXT NOT NULL)');
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-inbox-'));
  const cleanups: (() => Promise<void>)[] = [async () => rmSync(dir, { recursive: true, force: true })];
  const setups: Setup[] = [
    { name: 'floor (MemoryDedupeStore)', make: async () => ({ inbox: null, close: async () => undefined }) },
    {
      name: 'inbox: memory',
      make: async () => ({ inbox: new Inbox(new MemoryInboxStore()), close: async () => undefined }),
    },
    {
      name: 'inbox: sqlite',
      make: async (round) => {
        const store = await SqliteInboxStore.open(join(dir, `round-${round}-${Math.random()}.db`));
        await sqlEffectsTable(store);
        return { inbox: new Inbox(store), close: () => store.close() };
      },
    },
  ];
  if (hasPostgresServer()) {
    const pg = await startOwnPostgres();
    cleanups.push(() => pg.stop());
    setups.push({
      name: 'inbox: postgres',
      make: async (round) => {
        const store = await PostgresInboxStore.connect(pg.url, { table: `bench_inbox_${round}_${counter}` });
        await sqlEffectsTable(store);
        return { inbox: new Inbox(store), close: () => store.close() };
      },
    });
  }
  if (hasRedisServer()) {
    const redis = await startOwnRedis();
    const client = await createClient({ url: redis.url }).connect();
    cleanups.push(async () => {
      await client.quit();
      await redis.stop();
    });
    setups.push({
      name: 'inbox: redis',
      make: async (round) => ({
        inbox: new Inbox(new RedisInboxStore(client, { keyPrefix: `{bench-${round}-${counter}}:` })),
        close: async () => undefined,
      }),
    });
  }

  const loadBefore = loadavg();
  console.log(
    `bench/inbox.ts: ${ROUNDS} rounds, ${DELIVERIES} deliveries a round, ${CONCURRENCY} at a time; ` +
      `steady 200/s for ${STEADY_S} s; Node ${process.version}, ${cpus().length} cores, ` +
      `load average ${loadBefore.map((n) => n.toFixed(2)).join(' ')} at the start`,
  );
  const results = new Map<string, { rate: number[]; drain: number[]; p50: number[]; p99: number[] }>();
  for (const setup of setups) results.set(setup.name, { rate: [], drain: [], p50: [], p99: [] });
  for (let round = 0; round < ROUNDS; round++) {
    const order = setups.map((_, i) => setups[(i + round) % setups.length]!);
    for (const setup of order) {
      const figures = results.get(setup.name)!;
      const { inbox, close } = await setup.make(round);
      const { server, port } = await serve(inbox);
      try {
        figures.rate.push(await throughput(port, DELIVERIES));
        if (inbox) figures.drain.push(await drain(inbox, DELIVERIES));
        const { p50, p99 } = await steady(port, inbox);
        figures.p50.push(p50);
        figures.p99.push(p99);
      } finally {
        server.close();
        await close();
      }
    }
    process.stdout.write(`  round ${round + 1}/${ROUNDS} done\n`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const spread = (values: number[], digits = 0) =>
    `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
  const floor = median(results.get(setups[0]!.name)!.rate);
  console.log(
    '\n| setup | deliveries/s answered (median, min-max) | x floor | events/s by 4 workers | answer p50 ms at 200/s | answer p99 ms at 200/s |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, figures] of results) {
    console.log(
      `| ${name} | ${spread(figures.rate)} | ${(median(figures.rate) / floor).toFixed(2)}x | ${
        figures.drain.length ? spread(figures.drain) : 'n/a'
      } | ${spread(figures.p50, 1)} | ${spread(figures.p99, 1)} |`,
    );
  }
  console.log(
    `\nload average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  agent.destroy();
  for (const cleanup of cleanups.reverse()) await cleanup();
}

await main();
