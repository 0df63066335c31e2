/**
 * What a call costs, the built package (dist/, what users install) beside its floors and its peers, over a
 * loopback server in a child process (transport-server.ts): `npm run build`, then `npx tsx bench/transport.ts`.
 *
 * Three answers the API really sends: one reservation (0.8 kB), a page of 70 (55 kB) and a page of 200
 * (159 kB). For each, every contender runs in every round (BENCH_ROUNDS, default 9, at least 5), the order
 * rotating by one each round, so a busy spell of a shared machine touches all of them alike:
 *
 *   node:http         http.request on a keep-alive agent, body collected and JSON.parse'd: the floor
 *   fetch             fetch() + res.json()
 *   ky                ky's .json() as the SDK configures ky (retry 0, timeout false): the SDK's HTTP layer
 *   shop-mgmt         shop.request / shop.list over the generated operation, validation on ('strict')
 *   shop-mgmt + hooks the same with one no-op hook of each of the four kinds
 *   openai@6          client.get(path): openai-node's transport (fetch), no validation
 *   stripe@23         stripe.rawRequest('GET', path): stripe-node's transport (node:http by default)
 *
 * Each round gives each contender's per-call wall time and client-process CPU time (user + system; the
 * server works in its own process); the ratios are taken within a round (so both sides of a ratio saw the
 * same load) and printed as median (min-max) over the rounds.
 */
import { Agent, request as httpRequest } from 'node:http';
import ky from 'ky';
import OpenAI from 'openai';
import Stripe from 'stripe';
import { importBuilt, loadLine, type Spread, show, spread, startServer } from './support.js';

type Sdk = typeof import('../src/index.js');
const { ShopClient, operations } = await importBuilt<Sdk>();

const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 9));
const server = await startServer();
const { baseUrl, port } = server;
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
const api = ky.create({ headers, retry: 0, timeout: false, throwHttpErrors: false });
const openai = new OpenAI({ apiKey, baseURL: `${baseUrl}/v1` });
const stripe = new Stripe(apiKey, { host: '127.0.0.1', port, protocol: 'http' });
const agent = new Agent({ keepAlive: true });
const listOp = operations['range.reservations.list'];
const retrieveOp = operations['range.reservations.retrieve'];

/** The floor: node:http on a keep-alive agent, the body collected and parsed. */
function viaHttp(path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

type Variant = readonly [name: string, run: () => Promise<unknown>];
interface Case {
  readonly name: string;
  /** Calls per contender per round: enough that a round of the case is not timer noise. */
  readonly perRound: number;
  readonly variants: readonly Variant[];
}

function pageCase(limit: number, perRound: number): Case {
  const path = `/v1/range/reservations?limit=${limit}`;
  return {
    name: `page of ${limit}`,
    perRound,
    variants: [
      ['node:http + JSON.parse', () => viaHttp(path)],
      ['fetch + res.json()', async () => (await fetch(baseUrl + path, { headers })).json()],
      ['ky .json()', () => api(baseUrl + path).json()],
      ['shop-mgmt, validated', async () => shop.list(listOp, { query: { limit } })],
      ['shop-mgmt, validated, 4 no-op hooks', async () => hooked.list(listOp, { query: { limit } })],
      ['openai@6 client.get', () => openai.get(`/range/reservations?limit=${limit}`)],
      ['stripe@23 rawRequest', () => stripe.rawRequest('GET', path, null as never)],
    ],
  };
}

const onePath = '/v1/range/reservations/1';
const cases: Case[] = [
  {
    name: '1-item answer',
    perRound: 200,
    variants: [
      ['node:http + JSON.parse', () => viaHttp(onePath)],
      ['fetch + res.json()', async () => (await fetch(baseUrl + onePath, { headers })).json()],
      ['ky .json()', () => api(baseUrl + onePath).json()],
      ['shop-mgmt, validated', async () => shop.request(retrieveOp, { path: { id: 1 } })],
      ['shop-mgmt, validated, 4 no-op hooks', async () => hooked.request(retrieveOp, { path: { id: 1 } })],
      ['openai@6 client.get', () => openai.get('/range/reservations/1')],
      ['stripe@23 rawRequest', () => stripe.rawRequest('GET', onePath, null as never)],
    ],
  },
  pageCase(70, 40),
  pageCase(200, 16),
];

interface Figures {
  /** Per contender: per-call microseconds of each round. */
  readonly wall: number[][];
  readonly cpu: number[][];
}

async function measure(benchCase: Case): Promise<Figures> {
  const { variants, perRound } = benchCase;
  const wall: number[][] = variants.map(() => []);
  const cpu: number[][] = variants.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < variants.length; step++) {
      const index = (round + step) % variants.length;
      const run = variants[index]![1];
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      for (let i = 0; i < perRound; i++) await run();
      const used = process.cpuUsage(cpuStarted);
      wall[index]!.push(((performance.now() - started) / perRound) * 1000);
      cpu[index]!.push((used.user + used.system) / perRound);
    }
  }
  return { wall, cpu };
}

/** Round by round, a contender's figure over another's. */
const ratios = (figures: number[][], index: number, base: number): Spread =>
  spread(figures[index]!.map((value, round) => value / figures[base]![round]!));

// Until V8 has grown its heap to the pages and compiled every path, the first contender measured would pay.
for (const benchCase of cases) {
  for (const [, run] of benchCase.variants) for (let i = 0; i < benchCase.perRound * 3; i++) await run();
}

console.log(
  `bench/transport: node ${process.version}, shop-mgmt as installed (dist/node/), ${ROUNDS} rounds, every contender in each ` +
    `round, order rotating; ${await loadLine()} at the start`,
);
console.log('figures: median (min-max) over the rounds; ratios taken within each round\n');
const FETCH = 1;
const KY = 2;
for (const benchCase of cases) {
  const { wall, cpu } = await measure(benchCase);
  console.log(`${benchCase.name} (${benchCase.perRound} calls per contender per round)`);
  console.log(
    `  ${'contender'.padEnd(37)}${'wall us/call'.padEnd(24)}${'wall / fetch'.padEnd(20)}${'wall / ky'.padEnd(20)}` +
      `${'cpu / fetch'.padEnd(20)}cpu / ky`,
  );
  for (const [index, [name]] of benchCase.variants.entries()) {
    console.log(
      `  ${name.padEnd(37)}${show(spread(wall[index]!), 0).padEnd(24)}${show(ratios(wall, index, FETCH)).padEnd(20)}` +
        `${show(ratios(wall, index, KY)).padEnd(20)}${show(ratios(cpu, index, FETCH)).padEnd(20)}${show(ratios(cpu, index, KY))}`,
    );
  }
  console.log('');
}
console.log(`${await loadLine()} at the end`);
server.stop();
agent.destroy();
