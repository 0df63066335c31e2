/**
 * What each entry of the package weighs and costs to import, beside openai-node and stripe-node measured
 * the same way in the same run.
 *
 *   npx tsx bench/size.ts        (npm run bench:size)
 *
 * Size: esbuild bundles each entry from src/ with its dependencies (zod, p-retry, ky...) into one minified
 * ESM file, as an application's bundler would, and gzips it (level 9). Node built-ins and the testing
 * entry's optional peer msw stay outside. openai and stripe are bundled from their package entries.
 * Import: each bundle is written to a temporary directory and imported in a fresh `node` process, timed
 * around `await import()`; the figure is the median of 15 processes minus the median of 15 imports of an
 * empty module, so Node's own start-up is not counted. "installed" times the same for what a Node
 * application loads without a bundler: dist/ (run `npm run build` first; n/a without it) with its
 * dependencies from node_modules, and the openai and stripe packages as npm installed them. Targets and their packages alternate round by
 * round, so a busy spell of the machine touches all of them alike.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);

interface Target {
  readonly name: string;
  /** The module text esbuild bundles (resolved from the repository root). */
  readonly contents: string;
  /** Target of min+gz, in kB, when the issue sets one. */
  readonly limitKb?: number;
  /** What a Node application imports once installed: a built file of dist/, or a package name. */
  readonly installed?: string;
}

const sdk = (file: string) => `export * from ${JSON.stringify(join(root, file))};`;

const TARGETS: Target[] = [
  { name: 'shop-sdk', contents: sdk('src/index.ts'), limitKb: 35, installed: 'dist/index.js' },
  // issue 10 makes ky a runtime dependency of the main entry; until it is there, this row adds it.
  {
    name: 'shop-sdk + ky',
    contents: `${sdk('src/index.ts')}\nexport { default as __ky } from 'ky';`,
    limitKb: 35,
  },
  { name: 'shop-sdk/webhooks', contents: sdk('src/webhooks/index.ts'), installed: 'dist/webhooks/index.js' },
  {
    name: 'shop-sdk/webhooks/verify',
    contents: sdk('src/webhooks/verify-only.ts'),
    limitKb: 5,
    installed: 'dist/webhooks/verify.js',
  },
  {
    name: 'shop-sdk/webhooks/redis',
    contents: sdk('src/webhooks/redis.ts'),
    installed: 'dist/webhooks/redis.js',
  },
  { name: 'shop-sdk/testing', contents: sdk('src/testing/index.ts'), installed: 'dist/testing/index.js' },
  {
    name: 'openai@6',
    contents: "export * from 'openai'; export { default } from 'openai';",
    installed: 'openai',
  },
  {
    name: 'stripe@23',
    contents: "export * from 'stripe'; export { default } from 'stripe';",
    installed: 'stripe',
  },
];

interface Measured {
  readonly target: Target;
  readonly file: string;
  readonly minBytes: number;
  readonly gzBytes: number;
  readonly hasKy: boolean;
  readonly zod: string;
}

async function bundle(target: Target, dir: string, index: number): Promise<Measured> {
  const result = await build({
    stdin: { contents: target.contents, resolveDir: root, loader: 'ts', sourcefile: `${target.name}.ts` },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    external: ['msw', 'msw/*'],
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const code = result.outputFiles[0]!.contents;
  const file = join(dir, `entry-${index}.mjs`);
  writeFileSync(file, code);
  const inputs = Object.keys(result.metafile.inputs);
  const zodFiles = inputs.filter((input) => input.includes('node_modules/zod/'));
  const zod =
    zodFiles.length === 0
      ? 'none'
      : zodFiles.some((input) => input.includes('/v4/classic/'))
        ? 'classic'
        : `mini${zodFiles.some((input) => input.endsWith('/core/compile.js')) ? ' + compile' : ''}`;
  return {
    target,
    file,
    minBytes: code.length,
    gzBytes: gzipSync(code, { level: 9 }).length,
    hasKy: inputs.some((input) => input.includes('node_modules/ky/')),
    zod,
  };
}

/** A file path as a file URL; a package name (resolved from the repository root) as it is. */
const specifier = (target: string) => (target.startsWith('/') ? pathToFileURL(target).href : target);

/** One fresh process: milliseconds spent in `await import(file)`. */
function importOnce(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier(file))}); process.stdout.write(String(performance.now() - t));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    cwd: root,
  });
  if (child.status !== 0) throw new Error(`importing ${file} failed:\n${child.stderr}`);
  return Number(child.stdout);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-sdk-bench-size-'));
  try {
    const measured: Measured[] = [];
    for (const [index, target] of TARGETS.entries()) measured.push(await bundle(target, dir, index));
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, 'export {};\n');

    // The installed form: dist/ when built (`npm run build`), and the packages as npm installed them.
    const installed = new Map<Measured, string>();
    for (const m of measured) {
      const target = m.target.installed;
      if (target === undefined) continue;
      if (!target.startsWith('dist/')) installed.set(m, target);
      else if (existsSync(join(root, target))) installed.set(m, join(root, target));
    }
    const files = [empty, ...measured.map((m) => m.file), ...installed.values()];
    for (const file of files) importOnce(file); // warm the file system cache
    const times = new Map<string, number[]>(files.map((file) => [file, []]));
    for (let round = 0; round < SAMPLES; round++) {
      const order = round % 2 ? [...files].reverse() : files;
      for (const file of order) times.get(file)!.push(importOnce(file));
    }
    const emptyMs = median(times.get(empty)!);

    console.log(
      `bench/size: Node ${process.version}; esbuild, dependencies bundled, minified, gzip -9; ` +
        `import = median of ${SAMPLES} fresh processes minus an empty import (${emptyMs.toFixed(1)} ms)\n`,
    );
    console.log(
      `${'entry'.padEnd(26)}${'min kB'.padStart(8)}${'min+gz kB'.padStart(11)}${'import ms'.padStart(11)}${'installed'.padStart(11)}  zod / ky / target`,
    );
    for (const m of measured) {
      const importMs = median(times.get(m.file)!) - emptyMs;
      const from = installed.get(m);
      const installedMs = from === undefined ? 'n/a' : (median(times.get(from)!) - emptyMs).toFixed(1);
      const limit =
        m.target.limitKb === undefined
          ? ''
          : `  target <= ${m.target.limitKb} kB: ${m.gzBytes <= m.target.limitKb * 1000 ? 'met' : 'NOT met'}`;
      const about = m.target.name.startsWith('shop-sdk')
        ? `  zod ${m.zod}, ky ${m.hasKy ? 'in' : 'not in'}${limit}`
        : '';
      console.log(
        `${m.target.name.padEnd(26)}${kb(m.minBytes).padStart(8)}${kb(m.gzBytes).padStart(11)}${importMs.toFixed(1).padStart(11)}${installedMs.padStart(11)}${about}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
