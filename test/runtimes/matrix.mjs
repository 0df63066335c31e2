// The runtime matrix's host (Node): serves a sandbox of the installed package on 127.0.0.1, then runs
// probe.mjs in each runtime against it: Node 20, 22 and 24, Bun and Deno as processes, workerd through miniflare
// with the probe bundled by esbuild for Workers. Paths arrive as arguments from scripts/runtime-matrix.sh.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { createSandbox } from 'shop-mgmt/testing';

const [runtimesDir, esbuildDir, node24, node22] = process.argv.slice(2);
const fromRuntimes = createRequire(`${runtimesDir}/package.json`);
const bin = (name) => `${runtimesDir}/node_modules/.bin/${name}`;

const sandbox = createSandbox({ seed: 1 });
const server = await sandbox.listen();
const env = { ...process.env, SHOP_URL: server.url, SHOP_KEY: sandbox.createKey() };
const results = [];

// Asynchronous: the sandbox answering the probe lives in this process's event loop.
async function runProcess(name, command, args) {
  const started = performance.now();
  const run = await promisify(execFile)(command, args, { env, timeout: 120_000 }).catch((error) => error);
  const ms = Math.round(performance.now() - started);
  const ok = !(run instanceof Error);
  process.stdout.write(ok ? run.stdout : `${run.stdout ?? ''}${run.stderr ?? ''}${run.message}\n`);
  results.push({ name, ok, ms });
}

async function runWorker() {
  const started = performance.now();
  const esbuild = createRequire(`${esbuildDir}/package.json`)('esbuild');
  const bundle = await esbuild.build({
    entryPoints: ['probe-worker.mjs'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*'],
    logLevel: 'warning',
  });
  await writeFile('worker.mjs', bundle.outputFiles[0].text);
  const { Miniflare } = fromRuntimes('miniflare');
  // nodejs_compat, as wrangler asks of a bundle naming node: modules: only the lazy import('node:http')
  // behind sandbox.listen() does, and it never runs here.
  const mf = new Miniflare({
    modules: true,
    scriptPath: 'worker.mjs',
    compatibilityDate: '2025-09-01',
    compatibilityFlags: ['nodejs_compat'],
    bindings: { SHOP_URL: env.SHOP_URL, SHOP_KEY: env.SHOP_KEY },
    d1Databases: ['DB'],
  });
  try {
    const response = await mf.dispatchFetch('http://worker.test/');
    const answer = await response.json();
    const ms = Math.round(performance.now() - started);
    if (answer.ok)
      console.log(
        `workerd (miniflare ${fromRuntimes('miniflare/package.json').version}): ${answer.passed.join('; ')}`,
      );
    else console.log(`workerd: ${answer.error}`);
    results.push({ name: 'workerd', ok: answer.ok, ms });
  } finally {
    await mf.dispose();
  }
}

try {
  await runProcess('node 20', process.execPath, ['probe-cli.mjs']);
  if (node22) await runProcess('node 22', node22, ['probe-cli.mjs']);
  if (node24) await runProcess('node 24', node24, ['probe-cli.mjs']);
  await runProcess('bun', bin('bun'), ['probe-cli.mjs']);
  await runProcess('deno', bin('deno'), [
    'run',
    '--allow-env',
    '--allow-net',
    '--allow-read',
    'probe-cli.mjs',
  ]);
  await runWorker();
} finally {
  await server.close();
}

for (const { name, ok, ms } of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(8)} ${ms} ms`);
const failed = results.filter((result) => !result.ok).length;
console.log(`runtime matrix: ${results.length - failed} passed, ${failed} failed`);
if (failed > 0 || results.length < 4 + (node24 ? 1 : 0) + (node22 ? 1 : 0)) process.exit(1);
