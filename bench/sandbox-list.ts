// The sandbox's list route at scale (issue 22, "The sandbox at scale"): list requests a second against the
// sandbox seeded with 50,000 reservations (`--records reservations=50000`), served on loopback, beside a bare
// node:http server answering the same paths with the same JSON bytes (the floor: HTTP alone). Both servers
// run in child processes of their own; this process is the client (node:http, keep-alive, CONCURRENCY
// requests in flight). Every round runs both servers, the order alternating; >= 5 rounds; median (min-max).
// Also: the same requests in process (`sandbox.handle`, no HTTP), and the sandbox process's heap and RSS.
//   npx tsx bench/sandbox-list.ts [--rounds 5] [--seconds 2] [--records 50000]
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { encodeCursor } from '../src/testing/http/pagination.js';
import { importBuilt, loadLine, root, show, spread } from './support.js';

// The built package (dist/), as partners run the sandbox; importBuilt refuses a dist/ older than src/.
const { createSandbox } = await importBuilt<typeof import('../src/testing/index.js')>('shop-mgmt/testing');

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const ROUNDS = Math.max(5, flag('rounds', 5));
const SECONDS = flag('seconds', 2);
const RECORDS = flag('records', 50_000);
const CONCURRENCY = 8;
const NOW = '2026-06-01T12:00:00Z';

/** What a partner's list calls look like: first pages, a deep page, filters, a sync's updated_since. */
const CASES: Record<string, string> = {
  'first page (50)': '/v1/range/reservations',
  'page of 200': '/v1/range/reservations?limit=200',
  'deep cursor page': `/v1/range/reservations?cursor=${encodeCursor(Math.floor(RECORDS * 0.8))}`,
  'status=cancelled': '/v1/range/reservations?status=cancelled',
  'updated_since 1 day': `/v1/range/reservations?updated_since=${new Date(Date.parse(NOW) - 86_400_000).toISOString()}`,
  'location_id + status': '/v1/range/reservations?location_id=1&status=completed',
};
const PATHS = Object.values(CASES);

interface Server {
  readonly port: number;
  readonly key: string;
  memory(): Promise<{ heapUsed: number; rss: number; rssSettled: number }>;
  stop(): void;
}

async function start(mode: 'sandbox' | 'bare'): Promise<Server> {
  const child = fork(
    join(root, 'bench/sandbox-list-server.mjs'),
    [mode, String(RECORDS), JSON.stringify(PATHS)],
    { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const { port, key } = await new Promise<{ port: number; key: string }>((done) =>
    child.once('message', (message) => done(message as { port: number; key: string })),
  );
  return {
    port,
    key,
    memory: () =>
      new Promise((done) => {
        child.once('message', (message) =>
          done(message as { heapUsed: number; rss: number; rssSettled: number }),
        );
        child.send('memory');
      }),
    stop: () => child.disconnect(),
  };
}

/** Requests completed per second against `server` on `path`, CONCURRENCY in flight, for SECONDS. */
async function rate(server: Server, path: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const headers = { Authorization: `Bearer ${server.key}` };
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  let failed = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path, headers, agent }, (response) => {
        if (response.statusCode !== 200) failed++;
        response.resume();
        response.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await one();
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  if (failed > 0) throw new Error(`${failed} of ${done} requests to ${path} did not answer 200`);
  return done / seconds;
}

/** The same requests in this process, through `sandbox.handle` (no HTTP): requests a second. */
async function inProcess(): Promise<Record<string, number[]>> {
  const sandbox = createSandbox({
    records: { reservations: RECORDS },
    rateLimits: { perMinute: 1_000_000_000, perDay: null },
    now: NOW,
  });
  const headers = { Authorization: `Bearer ${sandbox.createKey()}` };
  const out: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, path] of Object.entries(CASES)) {
      const until = performance.now() + (SECONDS * 1000) / 2;
      const started = performance.now();
      let done = 0;
      while (performance.now() < until) {
        const response = await sandbox.handle(new Request(`https://sandbox.shop.test${path}`, { headers }));
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        await response.text();
        done++;
      }
      out[name] = [...(out[name] ?? []), done / ((performance.now() - started) / 1000)];
    }
  }
  return out;
}

console.log(`sandbox list route, ${RECORDS} reservations; ${await loadLine()}`);
console.log(`${ROUNDS} rounds of ${SECONDS} s per case and server, ${CONCURRENCY} requests in flight\n`);

const local = await inProcess();
console.log('in process (sandbox.handle, no HTTP), list requests a second:');
for (const [name, values] of Object.entries(local))
  console.log(`  ${name.padEnd(22)} ${show(spread(values), 0)}`);

const sandboxServer = await start('sandbox');
const bareServer = await start('bare');
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const memoryLine = async (server: Server) => {
  const { heapUsed, rss, rssSettled } = await server.memory();
  return `heap ${mb(heapUsed)}, RSS ${mb(rss)} (settled ${mb(rssSettled)})`;
};
const startMemory = { sandbox: await memoryLine(sandboxServer), bare: await memoryLine(bareServer) };
const results: Record<string, { sandbox: number[]; bare: number[] }> = {};
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? (['sandbox', 'bare'] as const) : (['bare', 'sandbox'] as const);
  for (const [name, path] of Object.entries(CASES)) {
    const entry = results[name] ?? { sandbox: [], bare: [] };
    results[name] = entry;
    for (const which of order)
      entry[which].push(await rate(which === 'sandbox' ? sandboxServer : bareServer, path));
  }
}
console.log('\nover HTTP on loopback, list requests a second: sandbox | bare node:http, same JSON | ratio');
for (const [name, { sandbox, bare }] of Object.entries(results)) {
  const ratios = sandbox.map((value, index) => value / bare[index]!);
  console.log(
    `  ${name.padEnd(22)} ${show(spread(sandbox), 0).padEnd(22)} | ${show(spread(bare), 0).padEnd(22)} | ${show(spread(ratios), 2)}`,
  );
}
// Both processes hold the seeded sandbox (the bare one built it to learn the answers): the difference is
// what serving lists costs the sandbox process.
console.log(
  '\nmemory (after gc; settled: after 1.5 s idle and two more), seeded and before any request | after the runs:',
);
console.log(`  sandbox process          ${startMemory.sandbox} | ${await memoryLine(sandboxServer)}`);
console.log(`  bare node:http process   ${startMemory.bare} | ${await memoryLine(bareServer)}`);
console.log(`end: ${await loadLine()}`);
sandboxServer.stop();
bareServer.stop();
