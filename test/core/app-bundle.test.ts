// What an application that makes calls ships: the endpoint table its resource methods send through
// (src/generated/endpoints.ts) and not the reference's facts about each endpoint (permission, error codes,
// summaries), which `operations` adds for tools and which a bundler drops when nothing reads it. Bundled by
// esbuild from src/, minified, as a partner's bundler would.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(async () => {
  // A fresh clone has no node_modules/.cache until something writes one.
  await mkdir(join(root, 'node_modules/.cache'), { recursive: true });
  dir = await mkdtemp(join(root, 'node_modules/.cache/app-bundle-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every chunk of the minified, split bundle of an app whose source is `code`, joined. */
async function bundle(name: string, code: string): Promise<string> {
  const entry = join(dir, `${name}.ts`);
  await writeFile(entry, code.replaceAll('SHOP', JSON.stringify(resolve(root, 'src/index.ts'))));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    outdir: join(dir, name),
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles.map((file) => file.text).join('\n');
}

// A summary and a permission that only the facts table spells out (the resource docs are comments, gone
// from a minified bundle).
const FACTS = ['List range resources', 'Book a lane or class seats'];

describe('an application bundle', () => {
  it('carries the endpoints its calls need, not the facts of `operations` it never reads', async () => {
    const app = await bundle(
      'calls',
      `import { ShopClient } from SHOP;
       const shop = new ShopClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
       await shop.me.retrieve();
       await shop.range.reservations.list().toArray();`,
    );
    expect(app).toContain('/v1/range/reservations');
    expect(app).toContain('/v1/me');
    for (const fact of FACTS) expect(app).not.toContain(fact);
  }, 60_000);

  it('carries the facts when it reads `operations`', async () => {
    const tool = await bundle(
      'tool',
      `import { operations } from SHOP;
       console.log(operations['range.reservations.create'].summary);`,
    );
    for (const fact of FACTS) expect(tool).toContain(fact);
  }, 60_000);
});
