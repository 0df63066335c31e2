// What importing `shop-mgmt` loads: neither ky nor zod (nor the generated schemas) is in the entry or the chunks it
// imports statically; they sit in chunks the first call loads with import(), each resource group's schemas in
// chunks of their own. Read from esbuild's metafile of
// the same split ESM bundle a partner's bundler makes, so the test does not depend on a prior `npm run build`.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const execFileAsync = promisify(execFile);

async function splitBundle(): Promise<Metafile> {
  const result = await build({
    entryPoints: { index: resolve(root, 'src/index.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    outdir: resolve(root, 'node_modules/.cache/lazy-loading-test'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
}

/** Every input file of `output` and of the outputs it imports statically, transitively. */
function staticInputs(meta: Metafile, output: string, seen = new Set<string>()): Set<string> {
  if (seen.has(output)) return new Set();
  seen.add(output);
  const found = new Set(Object.keys(meta.outputs[output]?.inputs ?? {}));
  for (const imported of meta.outputs[output]?.imports ?? []) {
    if (imported.kind !== 'import-statement' || imported.external) continue;
    for (const input of staticInputs(meta, imported.path, seen)) found.add(input);
  }
  return found;
}

describe('importing shop-mgmt', () => {
  it('loads neither ky nor zod nor the schemas; the chunks a first call imports hold them', async () => {
    const meta = await splitBundle();
    const entry = Object.keys(meta.outputs).find((path) =>
      meta.outputs[path]?.entryPoint?.endsWith('src/index.ts'),
    );
    expect(entry).toBeDefined();
    const onImport = [...staticInputs(meta, entry as string)];
    const everything = Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs));
    const lazy = (pattern: RegExp) => {
      expect(onImport.filter((input) => pattern.test(input))).toEqual([]);
      expect(everything.some((input) => pattern.test(input))).toBe(true);
    };
    lazy(/node_modules\/ky\//);
    lazy(/node_modules\/zod\//);
    // p-retry is loaded by the first failed attempt (core/transport/retry.ts), not by the first call.
    lazy(/node_modules\/p-retry\//);
    // The Throttle and its memory store are imported by a client given `throttle` (rate-limit/lazy-throttle.ts).
    lazy(/src\/core\/rate-limit\/throttle\.ts$/);
    // The deferred clones of afterResponse hooks are imported by the first hooked response (transport/wire.ts).
    lazy(/src\/core\/observe\/deferred-clone\.ts$/);
    lazy(/src\/generated\/(schemas|params|operation-schemas)\.[a-z0-9-]+\.ts$/);
    lazy(/src\/generated\/(guards|operation-guards)\.[a-z0-9-]+\.ts$/);
    lazy(/src\/core\/validation\/validation\.ts$/);
    expect(onImport).toContain('src/core/transport/transport.ts');
  }, 60_000);

  it("loads on a group's first call that group's schemas, not another group's", async () => {
    const meta = await splitBundle();
    const chunkOf = (source: string) => {
      const output = Object.keys(meta.outputs).find((path) => meta.outputs[path]?.entryPoint === source);
      expect(output, source).toBeDefined();
      return [...staticInputs(meta, output as string)];
    };
    const me = chunkOf('src/generated/operation-schemas.me.ts');
    expect(me).toContain('src/generated/schemas.me.ts');
    expect(
      me.filter((input) => /src\/generated\/(schemas|params|operation-schemas)\.range\.ts$/.test(input)),
    ).toEqual([]);
    const range = chunkOf('src/generated/operation-schemas.range.ts');
    expect(range).toEqual(
      expect.arrayContaining(['src/generated/schemas.range.ts', 'src/generated/params.range.ts']),
    );
    expect(range).not.toContain('src/generated/schemas.me.ts');
  }, 60_000);

  it("loads on a group's first call its guards, which hold no zod, no validator and no schema", async () => {
    const meta = await splitBundle();
    const output = Object.keys(meta.outputs).find(
      (path) => meta.outputs[path]?.entryPoint === 'src/generated/operation-guards.me.ts',
    );
    expect(output).toBeDefined();
    const me = [...staticInputs(meta, output as string)];
    expect(me).toEqual(
      expect.arrayContaining(['src/generated/operation-guards.me.ts', 'src/generated/guards.me.ts']),
    );
    expect(
      me.filter((input) => /node_modules\/zod\/|src\/core\/validation\/validation\.ts$/.test(input)),
    ).toEqual([]);
    expect(me.filter((input) => /src\/generated\/(schemas|params|operation-schemas)\./.test(input))).toEqual(
      [],
    );
    expect(me.filter((input) => /src\/generated\/(guards|operation-guards)\.range\.ts$/.test(input))).toEqual(
      [],
    );
  }, 60_000);
});

/**
 * The split bundle written out and run by node, with every chunk that holds zod deleted: a first call whose
 * answer passes its guards never needs them; one whose answer a guard refuses must load them (to describe
 * the failure) and, finding them gone, fails with the chunk-load ShopError.
 */
describe('a first generated call, run', () => {
  it('succeeds with every zod chunk gone; a refused answer is what loads them', async () => {
    // A fresh clone has no node_modules/.cache until something writes one.
    await mkdir(resolve(root, 'node_modules/.cache'), { recursive: true });
    const out = await mkdtemp(resolve(root, 'node_modules/.cache/lazy-loading-run-'));
    try {
      const result = await build({
        entryPoints: { index: resolve(root, 'src/index.ts') },
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'neutral',
        mainFields: ['module', 'main'],
        outdir: out,
        metafile: true,
        logLevel: 'silent',
      });
      const outputs = Object.entries(result.metafile.outputs);
      const holding = (pattern: RegExp) =>
        outputs.filter(([, o]) => Object.keys(o.inputs).some((input) => pattern.test(input))).map(([p]) => p);
      const zodChunks = holding(/node_modules\/zod\//);
      expect(zodChunks.length).toBeGreaterThan(0);
      // ky is loaded by every first call: it must not share a chunk with zod.
      expect(holding(/node_modules\/ky\//).filter((p) => zodChunks.includes(p))).toEqual([]);
      for (const chunk of zodChunks) await rm(resolve(root, chunk));
      await writeFile(resolve(out, 'package.json'), '{"type":"module"}');

      let answer: unknown = { object: 'api_key', label: 'k' };
      const server = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: 'ok', data: answer }));
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const { port } = server.address() as AddressInfo;
      const script = `
        const { ShopClient } = await import(${JSON.stringify(pathToFileURL(resolve(out, 'index.js')).href)});
        const shop = new ShopClient({ apiKey: 'sk_test_k', baseUrl: 'http://127.0.0.1:${port}', maxRetries: 0 });
        try { console.log(JSON.stringify({ ok: await shop.me.retrieve() })); }
        catch (error) { console.log(JSON.stringify({ error: error.name, message: error.message })); }`;
      const run = async () => {
        const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
          timeout: 30_000,
        });
        return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
      };
      try {
        expect(await run()).toEqual({ ok: { object: 'api_key', label: 'k' } });
        answer = { object: 5 };
        const refused = await run();
        expect(refused.error).toBe('ShopError');
        expect(refused.message).toMatch(/^Could not load the schemas of me\.retrieve, to describe an answer/);
      } finally {
        server.close();
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);
});
