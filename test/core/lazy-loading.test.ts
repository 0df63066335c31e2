// What importing `shop-mgmt` loads: neither ky nor zod (nor the generated schemas) is in the entry or the chunks it
// imports statically; they sit in chunks the first call loads with import(), each resource group's schemas in
// chunks of their own. Read from esbuild's metafile of
// the same split ESM bundle a partner's bundler makes, so the test does not depend on a prior `npm run build`.
import { resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

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
    lazy(/src\/generated\/(schemas|params|operation-schemas)\.[a-z0-9-]+\.ts$/);
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
});
