/**
 * What the transport costs: the SDK (envelope, validation, retries wrapper and all) against bare
 * `fetch` + `res.json()`, on a loopback server in a child process, for a 200-item page of reservations
 * (~285 KB) and for one reservation. The two alternate within every round, so drift in the machine's speed
 * hits both alike; the figures are medians of per-round means. ky's `.json()` is measured the same way, in
 * a pair of its own, as a reference. Runs src/ through tsx: `npx tsx bench/transport.ts`.
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
const listOp = operations['range.reservations.list'];
const retrieveOp = operations['range.reservations.retrieve'];

type Variant = () => Promise<unknown>;
interface Case {
  readonly name: string;
  readonly bytes: number;
  /** Calls per variant per round: enough that a round of the small case is not timer noise. */
  readonly perRound: number;
  readonly bare: Variant;
  readonly sdk: Variant;
  readonly ky: Variant;
}

const bigUrl = `${baseUrl}/v1/range/reservations?limit=200`;
const smallUrl = `${baseUrl}/v1/range/reservations/1`;
const cases: Case[] = [
  {
    name: '200-item page',
    bytes: bigBytes ?? 0,
    perRound: 20,
    bare: async () => (await fetch(bigUrl, { headers })).json(),
    sdk: async () => shop.list(listOp, { query: { limit: 200 } }),
    ky: () => ky(bigUrl, { headers }).json(),
  },
  {
    name: '1-item response',
    bytes: smallBytes ?? 0,
    perRound: 200,
    bare: async () => (await fetch(smallUrl, { headers })).json(),
    sdk: async () => shop.request(retrieveOp, { path: { id: 1 } }),
    ky: () => ky(smallUrl, { headers }).json(),
  },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

/** Median per-call microseconds of `a` and `b`, run alternately (order flipped every round). */
async function duel(benchCase: Case, a: Variant, b: Variant): Promise<[number, number]> {
  for (let i = 0; i < benchCase.perRound * 2; i++) {
    await a();
    await b();
  }
  const samples: [number[], number[]] = [[], []];
  const runs: [Variant, Variant] = [a, b];
  for (let round = 0; round < ROUNDS; round++) {
    for (const index of round % 2 ? [1, 0] : [0, 1]) {
      const run = runs[index as 0 | 1];
      const started = performance.now();
      for (let i = 0; i < benchCase.perRound; i++) await run();
      samples[index as 0 | 1].push(((performance.now() - started) / benchCase.perRound) * 1000);
    }
  }
  return [median(samples[0]), median(samples[1])];
}

const row = (name: string, us: number, baseline: number) =>
  `  ${name.padEnd(34)} ${us.toFixed(1).padStart(8)} us   ${(us / baseline).toFixed(2)}x`;

// Until V8 has grown its heap to the 284 kB pages, the first pair measured would pay for the growth.
for (const benchCase of cases) {
  for (const run of [benchCase.bare, benchCase.sdk, benchCase.ky]) {
    for (let i = 0; i < benchCase.perRound * 10; i++) await run();
  }
}

console.log(`node ${process.version}, ${ROUNDS} rounds per pair, the pair alternating within each round\n`);
for (const benchCase of cases) {
  console.log(`${benchCase.name} (${(benchCase.bytes / 1000).toFixed(0)} kB)`);
  const [bare, sdk] = await duel(benchCase, benchCase.bare, benchCase.sdk);
  console.log(row('fetch + res.json()', bare, bare));
  console.log(row('shop-sdk, validated', sdk, bare));
  // ky runs in a pair of its own: the garbage its Request clones leave behind would otherwise be
  // collected during, and billed to, whichever variant ran next.
  const [bareAgain, kyJson] = await duel(benchCase, benchCase.bare, benchCase.ky);
  console.log(row('(reference) ky .json(), no validation', kyJson, bareAgain));
  console.log('');
}
server.disconnect();
