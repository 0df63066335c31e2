/**
 * A cold process's first call: a fresh `node` imports the package as installed (shop-mgmt from dist/, the
 * peers from node_modules; `shop-mgmt` by its name, which Node resolves to dist/node/) and makes one call to a loopback server, and reports the milliseconds from just
 * before its `import()` to the parsed answer. `npm run build`, then `npx tsx bench/cold.ts`.
 *
 * Contenders, each BENCH_SAMPLES times (default 15), interleaved (one process of each in turn):
 *   fetch          no import; fetch() + res.json(): what any client pays for Node's fetch on a first call
 *   ky             import ky, ky(url).json()
 *   shop-mgmt      import 'shop-mgmt', shop.range.reservations.retrieve(1), validated
 *   openai@6       import openai, client.get(path)
 *   stripe@23      import stripe, stripe.rawRequest('GET', path)
 * Ratios are taken sample by sample (the i-th process of each, started one after the other) and printed as
 * median (min-max).
 */
import { spawnSync } from 'node:child_process';
import { loadLine, root, show, spread, startServer } from './support.js';

const SAMPLES = Math.max(5, Number(process.env.BENCH_SAMPLES ?? 15));
const server = await startServer();
const path = '/v1/range/reservations/1';

const contenders: Record<string, string> = {
  fetch: `await (await fetch(base + ${JSON.stringify(path)})).json();`,
  ky: `const { default: ky } = await import('ky'); await ky(base + ${JSON.stringify(path)}).json();`,
  'shop-mgmt': `const { ShopClient } = await import('shop-mgmt');
    await new ShopClient({ apiKey: 'sk_test_bench', baseUrl: base, logLevel: 'off' }).range.reservations.retrieve(1);`,
  'openai@6': `const { default: OpenAI } = await import('openai');
    await new OpenAI({ apiKey: 'sk_test_bench', baseURL: base + '/v1' }).get('/range/reservations/1');`,
  'stripe@23': `const { default: Stripe } = await import('stripe');
    await new Stripe('sk_test_bench', { host: '127.0.0.1', port: ${server.port}, protocol: 'http' }).rawRequest('GET', ${JSON.stringify(path)}, null);`,
};

function once(code: string): number {
  const script = `const base = ${JSON.stringify(server.baseUrl)}; const t = performance.now(); ${code}
    process.stdout.write(String(performance.now() - t));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`a cold call failed:\n${child.stderr}`);
  return Number(child.stdout);
}

const names = Object.keys(contenders);
for (const name of names) once(contenders[name]!); // the file system cache
const times = new Map(names.map((name) => [name, [] as number[]]));
for (let sample = 0; sample < SAMPLES; sample++) {
  const order = sample % 2 ? [...names].reverse() : names;
  for (const name of order) times.get(name)!.push(once(contenders[name]!));
}
console.log(
  `bench/cold: node ${process.version}, ${SAMPLES} fresh processes each, interleaved; ${await loadLine()} at the end`,
);
console.log('ms from before import() to the parsed answer of a first call, median (min-max)\n');
const openai = times.get('openai@6')!;
const bare = times.get('fetch')!;
console.log(`  ${'contender'.padEnd(12)}${'ms'.padEnd(22)}${'/ openai@6'.padEnd(20)}/ fetch alone`);
for (const name of names) {
  const own = times.get(name)!;
  console.log(
    `  ${name.padEnd(12)}${show(spread(own), 1).padEnd(22)}${show(spread(own.map((ms, i) => ms / openai[i]!))).padEnd(20)}` +
      show(spread(own.map((ms, i) => ms / bare[i]!))),
  );
}
server.stop();
