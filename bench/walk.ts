/**
 * A walk of 50,000 records (WALK_RECORDS) through a cursor list, the built package against a hand-written
 * fetch loop that requests and parses the same pages: `npm run build`, then `npx tsx bench/walk.ts`.
 *
 * Two page sizes: 200 records a page (250 pages of 159 kB) and 20 (2,500 pages of 16 kB). Contenders, in
 * every round (BENCH_ROUNDS, default 5), the order rotating each round:
 *
 *   fetch loop   fetch(url) + res.json(), every record visited, meta.next_cursor followed until has_more ends
 *   ky loop      the same through ky's .json() as the SDK configures ky (retry 0, timeout false)
 *   shop-mgmt    for await (const r of shop.range.reservations.list({ limit })), validation on ('strict')
 *
 * Then, untimed, the heap each walk keeps per page: a full GC and `heapUsed` a tenth of the way through the
 * walk and again at nine tenths, the difference over the pages between (flat: nothing kept per page).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ky from 'ky';
import { importBuilt, loadLine, show, spread, startServer } from './support.js';

type Sdk = typeof import('../src/index.js');
const { ShopClient } = await importBuilt<Sdk>();

const RECORDS = Number(process.env.WALK_RECORDS ?? 50_000);
const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 5));
const server = await startServer({ WALK_RECORDS: String(RECORDS) });
const { baseUrl } = server;
const apiKey = 'sk_test_bench';
const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
const shop = new ShopClient({ apiKey, baseUrl, logLevel: 'off', responseValidation: 'strict' });
const api = ky.create({ headers, retry: 0, timeout: false, throwHttpErrors: false });

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Called once per record; the heap pass's returns a promise at the points where it looks in. */
type Visit = (record: { id: number }, index: number) => void | Promise<void>;

interface ListBody {
  data: { id: number }[];
  meta: { has_more: boolean; next_cursor: string | null };
}

async function loop(limit: number, visit: Visit, get: (url: string) => Promise<ListBody>): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  for (;;) {
    const url = `${baseUrl}/v1/range/reservations?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const body = await get(url);
    for (const record of body.data) {
      const looking = visit(record, count++);
      if (looking) await looking;
    }
    if (!body.meta.has_more) return count;
    cursor = body.meta.next_cursor;
  }
}

const walkers = {
  'fetch loop': (limit: number, visit: Visit) =>
    loop(limit, visit, async (url) => (await fetch(url, { headers })).json() as Promise<ListBody>),
  'ky loop': (limit: number, visit: Visit) => loop(limit, visit, (url) => api(url).json<ListBody>()),
  'shop-mgmt, validated': async (limit: number, visit: Visit) => {
    let count = 0;
    for await (const record of shop.range.reservations.list({ limit })) {
      const looking = visit(record, count++);
      if (looking) await looking;
    }
    return count;
  },
} as const;
const names = Object.keys(walkers) as (keyof typeof walkers)[];

let sink = 0;
const touch: Visit = (record) => {
  sink += record.id;
};

console.log(
  `bench/walk: node ${process.version}, shop-mgmt as installed (dist/node/), ${RECORDS.toLocaleString('en-US')} records, ` +
    `${ROUNDS} rounds, order rotating; ${await loadLine()} at the start`,
);
console.log('figures: median (min-max) over the rounds; ratios taken within each round\n');
for (const limit of [200, 20]) {
  for (const name of names) await walkers[name](limit, touch); // warm-up
  const times = new Map(names.map((name) => [name, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < names.length; step++) {
      const name = names[(round + step) % names.length]!;
      const started = performance.now();
      const count = await walkers[name](limit, touch);
      times.get(name)!.push(performance.now() - started);
      if (count !== RECORDS) throw new Error(`${name} walked ${count} records, not ${RECORDS}`);
    }
  }
  const base = times.get('fetch loop')!;
  console.log(`${limit} a page (${Math.ceil(RECORDS / limit)} pages)`);
  console.log(
    `  ${'contender'.padEnd(24)}${'walk ms'.padEnd(24)}${'/ fetch loop'.padEnd(20)}heap kept per page`,
  );
  for (const name of names) {
    // The heap pass: a full GC a tenth of the way in and at nine tenths. Between two GCs the event loop
    // turns, so that FinalizationRegistry callbacks (undici registers one for each Request that follows a
    // signal: ky's and the SDK's) have run: what they hold is released, not kept by the walk.
    const first = Math.floor(RECORDS / 10 / limit) * limit;
    const last = Math.floor((RECORDS * 9) / 10 / limit) * limit;
    const heap: number[] = [];
    await walkers[name](limit, (record, index) => {
      touch(record, index);
      if (index !== first && index !== last) return;
      return (async () => {
        for (let turn = 0; turn < 3; turn++) {
          gc();
          await new Promise((done) => setImmediate(done));
        }
        gc();
        heap.push(process.memoryUsage().heapUsed);
      })();
    });
    const perPage = ((heap[1] ?? 0) - (heap[0] ?? 0)) / ((last - first) / limit);
    const own = times.get(name)!;
    console.log(
      `  ${name.padEnd(24)}${show(spread(own), 0).padEnd(24)}` +
        `${show(spread(own.map((ms, round) => ms / base[round]!))).padEnd(20)}${perPage.toFixed(0)} B`,
    );
  }
  console.log('');
}
console.log(`${await loadLine()} at the end${sink === 0 ? '' : ''}`);
server.stop();
