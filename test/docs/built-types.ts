// The package's published type declarations, for the docs runner: dist/ when its .d.ts files are newer than
// every source (CI builds before testing), else the package's .d.ts built by tsup (the first build of
// tsup.config.ts, `dts: { only: true }`) into node_modules/.cache, dist/ untouched. Like the CLI's build
// (test/cli/helpers.ts), the build is kept under the sources' newest time, so runs of the same sources share
// it; builds of older sources are removed.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The package's entry names ('shop-mgmt', 'shop-mgmt/webhooks', ...) and their .d.ts under dist/ (package.json's exports). */
export function publishedEntries(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { import?: { types?: string } }>;
  };
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const types = typeof target === 'object' ? target.import?.types : undefined;
    if (!types) continue; // ./package.json
    entries[`${manifest.name}${subpath.slice(1)}`] = types.replace(/^\.\/dist\//, '');
  }
  return entries;
}

/** The folder holding the package's .d.ts files as published (built when dist/ is missing or stale). */
export async function builtTypes(): Promise<string> {
  const newest = newestIn(join(root, 'src'));
  const dist = join(root, 'dist');
  const declarations = Object.values(publishedEntries());
  const fresh = (dir: string) =>
    declarations.every((file) => existsSync(join(dir, file)) && statSync(join(dir, file)).mtimeMs >= newest);
  if (fresh(dist)) return dist;
  const cache = join(root, 'node_modules/.cache');
  const shared = join(cache, `shop-mgmt-dts-src-${Math.floor(newest)}`);
  if (declarations.every((file) => existsSync(join(shared, file)))) return shared;
  const { build } = await import('tsup');
  const configs = (await import('../../tsup.config.js')).default;
  const library = (Array.isArray(configs) ? configs : [configs])[0];
  if (!library || typeof library !== 'object' || !library.dts)
    throw new Error('tsup.config.ts builds no .d.ts');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, 'shop-mgmt-dts-'));
  await build({ ...library, outDir, dts: { only: true }, sourcemap: false, silent: true });
  for (const old of readdirSync(cache).filter((name) => name.startsWith('shop-mgmt-dts-src-'))) {
    if (join(cache, old) !== shared) rmSync(join(cache, old), { recursive: true, force: true });
  }
  try {
    renameSync(outDir, shared); // whole, or not at all
  } catch {
    rmSync(outDir, { recursive: true, force: true }); // another run's build of the same sources won
  }
  return shared;
}

/** Each package entry name and the source file it is built from (tsup.config.ts's entries). */
export async function entrySources(): Promise<Record<string, string>> {
  const configs = (await import('../../tsup.config.js')).default;
  const library = (Array.isArray(configs) ? configs : [configs])[0] as { entry: Record<string, string> };
  const sources: Record<string, string> = {};
  for (const [name, declaration] of Object.entries(publishedEntries())) {
    const source = library.entry[declaration.replace(/\.d\.ts$/, '')];
    if (!source) throw new Error(`${name}: no entry in tsup.config.ts for dist/${declaration}`);
    sources[name] = source;
  }
  return sources;
}
