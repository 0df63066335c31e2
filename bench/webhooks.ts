// Webhook verification benchmark: `npx tsx bench/webhooks.ts` (after `npm run build` to measure dist/).
//
// 1. Verifications a second of a 1 kB and a 64 kB delivery (string and Buffer bodies) against the bare
//    node:crypto floor (split the same header, createHmac over `t.body`, timingSafeEqual), every contender in
//    each of BENCH_ROUNDS rounds (default 5) of BENCH_ROUND_MS (default 300 ms), the order rotating; ratios
//    are taken within each round and printed as median (min-max): verifyWebhookSignature (the same work,
//    checked) to the floor, verifyWebhook (which also parses the event) to the floor plus JSON.parse (the
//    full verify the >= 0.9 target applies to), and stripe-node's constructEvent (the same signature scheme)
//    beside it.
// 2. The verify-only entry, `shop-mgmt/webhooks/verify`, and the whole `shop-mgmt/webhooks`: import time over an
//    empty import (fresh processes), min+gz size with their chunks, and whether zod, ky or p-retry are part of
//    them. BENCH_FOOTPRINT=0 skips it.
import { spawnSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { loadLine, show, spread } from './support.js';

const root = resolve(import.meta.dirname, '..');
const rounds = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 5));
const roundMs = Number(process.env.BENCH_ROUND_MS ?? 300);

interface Entry {
  /** File to import: dist/webhooks/index.js when built, else a bundle of src/webhooks/index.ts. */
  readonly file: string;
  readonly label: string;
  readonly cleanup: () => void;
}

/** Newest modification time of the sources the webhooks entry is built from. */
function newestSource(): number {
  let newest = 0;
  for (const dir of ['src/webhooks', 'src/core/errors', 'src/generated']) {
    for (const name of readdirSync(join(root, dir)))
      newest = Math.max(newest, statSync(join(root, dir, name)).mtimeMs);
  }
  return newest;
}

/** A built entry of the package: dist/<name>.js when built, else a bundle of its source. */
async function entry(name: string, source: string): Promise<Entry> {
  const dist = join(root, `dist/${name}.js`);
  const fresh = existsSync(dist) && statSync(dist).mtimeMs >= newestSource();
  if (fresh) return { file: dist, label: `dist/${name}.js`, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'shop-mgmt-bench-'));
  const file = join(dir, 'webhooks.js');
  await build({
    entryPoints: [join(root, source)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile: file,
    logLevel: 'error',
  });
  return {
    file,
    label: `${source} bundled by esbuild (dist/ ${existsSync(dist) ? 'is older than src/' : 'is not built'}: run \`npm run build\` to measure it)`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function opsPerSecond(fn: () => unknown): number {
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < roundMs) {
    for (let i = 0; i < 256; i++) fn();
    count += 256;
    now = performance.now();
  }
  return (count * 1000) / (now - start);
}

async function asyncOpsPerSecond(fn: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < roundMs) {
    for (let i = 0; i < 256; i++) await fn();
    count += 256;
    now = performance.now();
  }
  return (count * 1000) / (now - start);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const secret = 'whsec_bench_0123456789abcdef0123456789abcdef';

/** The body of a delivery of about `bytes` bytes: a reservation event, its notes padded to the size. */
function delivery(bytes: number) {
  const event = {
    id: 'evt_01JBENCH0000000000000000',
    object: 'event',
    type: 'range.reservation.booked',
    api_version: '2026-09-24',
    created_at: '2026-09-24T10:00:00Z',
    livemode: false,
    data: {
      object: {
        object: 'range_reservation',
        id: 48211,
        status: 'booked',
        contact: { name: 'Sam Rivera', email: 'sam@example.com', phone: '+1 555 0100' },
        lines: Array.from({ length: 2 }, (_, i) => ({
          kind: 'lane_time',
          resource_id: 10 + i,
          description: `Lane ${i + 1}, 60 minutes`,
          quantity: 1,
          unit_cents: 3500,
          total_cents: 3500,
        })),
        notes: '',
      },
    },
  };
  const bare = JSON.stringify(event).length;
  event.data.object.notes = 'x'.repeat(Math.max(0, bytes - bare));
  return JSON.stringify(event);
}

/** A signature of `body` made now: each measurement gets a fresh one, so none outlives the 300 s tolerance. */
function signed(body: string) {
  const t = String(Math.floor(Date.now() / 1000));
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  const header = `t=${t},v1=${v1}`;
  return { header, headers: { 'service-signature': header } };
}

/**
 * Which HMAC backend the measured module picked, seen from outside: it asks process.getBuiltinModule for
 * node:crypto at its first verification, and uses Web Crypto when that gives nothing.
 */
async function observeBackend(run: () => Promise<unknown>): Promise<string> {
  const proc = process as { getBuiltinModule?: (id: string) => unknown };
  const original = proc.getBuiltinModule;
  if (typeof original !== 'function') {
    await run();
    return 'web-crypto (no process.getBuiltinModule)';
  }
  let loaded = false;
  proc.getBuiltinModule = (id: string) => {
    const module = original.call(process, id);
    if (id === 'node:crypto' && module) loaded = true;
    return module;
  };
  try {
    await run();
  } finally {
    proc.getBuiltinModule = original;
  }
  return loaded ? 'node:crypto' : 'web-crypto';
}

async function throughput(file: string): Promise<void> {
  const sdk = (await import(pathToFileURL(file).href)) as typeof import('../src/webhooks/index.js');
  const { default: Stripe } = await import('stripe');
  const stripe = new Stripe('sk_test_bench');
  let current = signed(delivery(1000));
  // Fails loudly if a delivery does not verify; the first verification is where the backend is chosen.
  const backend = await observeBackend(() =>
    sdk.verifyWebhook({ body: delivery(1000), headers: current.headers, secret }),
  );
  console.log(`HMAC backend of the measured module: ${backend}`);
  console.log(
    `verifications a second, median (min-max) of ${rounds} rounds of ${roundMs} ms each contender, ` +
      'in turn; ratios taken within each round',
  );

  for (const size of [1000, 64_000]) {
    const body = delivery(size);
    for (const [form, raw] of [
      ['string body', body],
      ['Buffer body', Buffer.from(body)],
    ] as const) {
      // The floor: what a hand-written verifier must do at least, with the same inputs.
      const floor = () => {
        const parts = current.header.split(',');
        const t = parts[0]!.slice(2);
        const v1 = Buffer.from(parts[1]!.slice(3), 'hex');
        const mac = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
        if (!timingSafeEqual(mac, v1)) throw new Error('floor failed');
      };
      const floorParsed = () => {
        floor();
        return JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
      };
      const contenders = [
        ['floor: header split + createHmac + timingSafeEqual', () => opsPerSecond(floor)],
        [
          'verifyWebhookSignature (the same work, checked)',
          () =>
            asyncOpsPerSecond(() =>
              sdk.verifyWebhookSignature({ body: raw, headers: current.headers, secret }),
            ),
        ],
        ['floor + JSON.parse of the body', () => opsPerSecond(floorParsed)],
        [
          'verifyWebhook (+ parse and envelope check)',
          () => asyncOpsPerSecond(() => sdk.verifyWebhook({ body: raw, headers: current.headers, secret })),
        ],
        [
          'stripe@23 webhooks.constructEvent',
          () => opsPerSecond(() => stripe.webhooks.constructEvent(raw, current.header, secret)),
        ],
        // verifyWebhook returns a promise (on Node an already settled one); awaiting it costs a receiver a
        // microtask turn that the synchronous floor does not pay. The same floor, awaited, shows that cost.
        [
          'floor + JSON.parse, awaited as a promise',
          () => asyncOpsPerSecond(() => Promise.resolve(floorParsed())),
        ],
      ] as const;
      const results: number[][] = contenders.map(() => []);
      for (let round = 0; round < rounds; round++) {
        for (let step = 0; step < contenders.length; step++) {
          const index = (round + step) % contenders.length;
          current = signed(body); // each measurement gets a fresh one, inside the 300 s tolerance
          results[index]!.push(await contenders[index]![1]());
        }
      }
      const ratio = (index: number, base: number) =>
        show(spread(results[index]!.map((value, round) => value / results[base]![round]!)));
      console.log(`\n  ${(Buffer.byteLength(body) / 1000).toFixed(1)} kB, ${form}`);
      for (const [index, [name]] of contenders.entries()) {
        const per = show(spread(results[index]!.map((n) => n / 1000)), 1, 'k/s');
        const against =
          index === 1
            ? `ratio to the floor ${ratio(1, 0)} (target >= 0.9)`
            : index === 3
              ? `ratio to floor + parse ${ratio(3, 2)} (target >= 0.9); to it awaited ${ratio(3, 5)}`
              : index === 4
                ? `ratio to floor + parse ${ratio(4, 2)}`
                : '';
        console.log(`    ${name.padEnd(52)}${per.padEnd(32)}${against}`);
      }
    }
  }
}

function importMs(file: string, samples: number): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    times.push(Number(child.stdout));
  }
  return median(times);
}

async function entryFootprint(title: string, target: Entry): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-mgmt-bench-empty-'));
  try {
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, 'export {};\n');
    importMs(target.file, 3); // warm the file system cache
    const entryTime = importMs(target.file, 15);
    const emptyTime = importMs(empty, 15);

    const sizes: string[] = [];
    let inputs: string[] = [];
    for (const [name, contents] of [
      ['whole entry', `export * from ${JSON.stringify(target.file)};`],
      ['verifyWebhook only (tree-shaken)', `export { verifyWebhook } from ${JSON.stringify(target.file)};`],
    ] as const) {
      const result = await build({
        stdin: { contents, resolveDir: root, loader: 'js' },
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'neutral',
        write: false,
        metafile: true,
        logLevel: 'error',
      });
      const code = result.outputFiles[0]!.contents;
      sizes.push(
        `${name} ${(gzipSync(code).length / 1000).toFixed(2)} kB (min ${(code.length / 1000).toFixed(1)} kB)`,
      );
      inputs = [...new Set([...inputs, ...Object.keys(result.metafile.inputs)])];
    }
    const heavy = inputs.filter((input) => /node_modules\/(zod|ky|p-retry)\//.test(input));

    console.log(`\n${title}: ${target.label}`);
    console.log(
      `  import time: ${entryTime.toFixed(1)} ms, empty import ${emptyTime.toFixed(1)} ms, ` +
        `difference ${(entryTime - emptyTime).toFixed(1)} ms   (target <= 20 ms; median of 15 fresh processes)`,
    );
    console.log(`  min+gz: ${sizes.join('; ')}   (target <= 5 kB)`);
    console.log(`  zod, ky or p-retry in the entry: ${heavy.length === 0 ? 'none' : heavy.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const target = await entry('webhooks/index', 'src/webhooks/index.ts');
const verifyOnly = await entry('webhooks/verify', 'src/webhooks/verify-only.ts');
try {
  console.log(
    `shop-mgmt webhooks bench: Node ${process.version}, measuring ${target.label}; ${await loadLine()} at the start`,
  );
  await throughput(target.file);
  if (process.env.BENCH_FOOTPRINT !== '0') {
    await entryFootprint('verify-only entry, shop-mgmt/webhooks/verify', verifyOnly);
    await entryFootprint('whole entry, shop-mgmt/webhooks (handlers, dedupe, router too)', target);
  }
} finally {
  target.cleanup();
  verifyOnly.cleanup();
}
