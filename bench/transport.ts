/**
 * What the transport costs: bare `fetch` + `res.json()`, ky's `.json()` alone (the SDK's HTTP layer, no
 * validation), and the SDK (ky, envelope, validation, retries wrapper and all), on a loopback server in a
 * child process, for a 200-item page of reservations (~285 KB) and for one reservation. The variants run in
 * turn within every round, the order rotating each round, so drift in the machine's speed hits all alike;
 * the figures are medians of per-round means. A fourth variant, the SDK with one no-op hook of each kind,
 * shows what hooks cost when set (unset, the transport skips them: no context object, no wrapper).
 * Runs src/ through tsx: `npx tsx bench/transport.ts`.
 */
import { fork } from 'node:child_process';
import ky from 'ky';
import { operations } from '../src/generated/operations.js';
import { ShopClient } from '../src/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);

const server = fork(new URL('./transport-server.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const ready = await new Promise<string>((resolve) =>
  server.stdout?.once('data', (chunk) => resolve(String(chunk))),
);
const [port, bigBytes, smallBytes] = ready.trim().split(' ').map(Number);
const baseUrl = `http://127.0.0.1:${port}`;
const apiKey = 'sk_test_bench';
const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };

const shop = new ShopClient({ apiKey, baseUrl, logLevel: 'off' });
const hooked = new ShopClient({
  apiKey,
  baseUrl,
  logLevel: 'off',
  hooks: {
    beforeRequest: [() => {}],
    afterResponse: [() => {}],
    beforeRetry: [() => {}],
    beforeError: [() => {}],
  },
});
// ky as a caller would use it for these GETs: one instance, its own retry off (nothing here fails).
const api = ky.create({ headers, retry: 0 });
const listOp = operations['range.reservations.list'];
const retrieveOp = operations['range.reservations.retrieve'];

type Variant = () => Promise<unknown>;
interface Case {
  readonly name: string;
  readonly bytes: number;
  /** Calls per variant per round: enough that a round of the small case is not timer noise. */
  readonly perRound: number;
  readonly variants: readonly (readonly [string, Variant])[];
}

const bigUrl = `${baseUrl}/v1/range/reservations?limit=200`;
const smallUrl = `${baseUrl}/v1/range/reservations/1`;
const cases: Case[] = [
  {
    name: '200-item page',
    bytes: bigBytes ?? 0,
    perRound: 20,
    variants: [
      ['fetch + res.json()', async () => (await fetch(bigUrl, { headers })).json()],
      ['ky .json(), no validation', () => api(bigUrl).json()],
      ['shop-mgmt, validated', async () => shop.list(listOp, { query: { limit: 200 } })],
      ['shop-mgmt, validated, 4 no-op hooks', async () => hooked.list(listOp, { query: { limit: 200 } })],
    ],
  },
  {
    name: '1-item response',
    bytes: smallBytes ?? 0,
    perRound: 200,
    variants: [
      ['fetch + res.json()', async () => (await fetch(smallUrl, { headers })).json()],
      ['ky .json(), no validation', () => api(smallUrl).json()],
      ['shop-mgmt, validated', async () => shop.request(retrieveOp, { path: { id: 1 } })],
      ['shop-mgmt, validated, 4 no-op hooks', async () => hooked.request(retrieveOp, { path: { id: 1 } })],
    ],
  },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

/**
 * Median per-call microseconds of each variant, all run in every round, the order rotated per round: wall
 * time, and the client process's CPU time (user + system), which a loaded machine disturbs far less than
 * wall time (the server's work is in its own process).
 */
async function rotate(benchCase: Case): Promise<{ wall: number[]; cpu: number[] }> {
  const runs = benchCase.variants.map(([, run]) => run);
  const wall: number[][] = runs.map(() => []);
  const cpu: number[][] = runs.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < runs.length; step++) {
      const index = (round + step) % runs.length;
      const run = runs[index] as Variant;
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      for (let i = 0; i < benchCase.perRound; i++) await run();
      const used = process.cpuUsage(cpuStarted);
      wall[index]?.push(((performance.now() - started) / benchCase.perRound) * 1000);
      cpu[index]?.push((used.user + used.system) / benchCase.perRound);
    }
  }
  return { wall: wall.map(median), cpu: cpu.map(median) };
}

// Until V8 has grown its heap to the 284 kB pages and JIT-compiled every path, the first variant measured
// would pay for it.
for (const benchCase of cases) {
  for (const [, run] of benchCase.variants) {
    for (let i = 0; i < benchCase.perRound * 10; i++) await run();
  }
}

console.log(`node ${process.version}, ${ROUNDS} rounds, every variant in each round, order rotating\n`);
for (const benchCase of cases) {
  console.log(`${benchCase.name} (${(benchCase.bytes / 1000).toFixed(0)} kB)`);
  const { wall, cpu } = await rotate(benchCase);
  console.log(
    `  ${''.padEnd(36)} ${'wall us'.padStart(9)}  vs fetch  vs ky  ${'cpu us'.padStart(8)}  vs fetch  vs ky`,
  );
  const ratio = (figures: number[], index: number, base: number) =>
    `${((figures[index] ?? Number.NaN) / (figures[base] ?? Number.NaN)).toFixed(2).padStart(7)}x`;
  for (const [index, [name]] of benchCase.variants.entries()) {
    console.log(
      `  ${name.padEnd(36)} ${(wall[index] ?? Number.NaN).toFixed(1).padStart(9)} ${ratio(wall, index, 0)} ${ratio(wall, index, 1)}  ${(cpu[index] ?? Number.NaN).toFixed(1).padStart(8)} ${ratio(cpu, index, 0)} ${ratio(cpu, index, 1)}`,
    );
  }
  console.log('');
}
server.disconnect();
