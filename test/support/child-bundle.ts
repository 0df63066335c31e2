// A test's child script bundled once into node_modules/.cache (so its bare imports resolve from the
// repository's node_modules), so each start or restart of the child is a plain `node` start, not a compile.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');

/** Bundles `entry` (a path from the repository root), `external` left to node_modules; removes it on `cleanup`. */
export async function bundleChild(
  entry: string,
  external: readonly string[],
): Promise<{ script: string; cleanup: () => void }> {
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'test-child-'));
  const script = join(dir, 'child.mjs');
  await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    external: [...external],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
  return { script, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
