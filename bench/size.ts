/**
 * What each entry of the package weighs and costs to import, beside openai-node and stripe-node measured
 * the same way in the same run.
 *
 *   npx tsx bench/size.ts        (npm run bench:size)
 *
 * Size: esbuild bundles each entry from src/ with its dependencies (zod, p-retry, ky...) into minified ESM,
 * as an application's bundler would, with code splitting: what the SDK loads with `import()` (the
 * validators with zod, the generated schemas, loaded on the first call) becomes chunks of their own. Each
 * file is gzipped (level 9) and two sizes are printed: "on import", the entry and the chunks it imports
 * statically (what `import 'shop-mgmt'` loads, the figure the 35 kB target is about), and "first call", that
 * plus every chunk it can load with `import()` (what a partner's bundler ships for an application that makes
 * a call). Node built-ins and the testing entry's optional peer msw stay outside. openai and stripe are
 * bundled from their package entries the same way.
 * Import: each bundle is written to a temporary directory and imported in a fresh `node` process, timed
 * around `await import()`; the figure is the median of 15 processes minus the median of 15 imports of an
 * empty module, so Node's own start-up is not counted. "+ lazy" times the import and then the import of
 * every chunk the entry can load later, as its first call does. "installed" times the same for what a Node
 * application loads without a bundler: dist/node/ (what Node resolves; run `npm run build` first; n/a without it) with its
 * dependencies from node_modules, and the openai and stripe packages as npm installed them. Targets and their packages alternate round by
 * round, so a busy spell of the machine touches all of them alike.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
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
  /**
   * The lazy chunks its first call loads, by their inputs (the validators, the called group's schemas);
   * without it, "first call" counts every chunk the entry can load with import().
   */
  readonly firstCall?: RegExp;
}

const sdk = (file: string) => `export * from ${JSON.stringify(join(root, file))};`;

/** An application that makes one call, importing only what it names: the second way of bundling. */
const app = (imports: string, call: string) => `${imports}\nexport const call = () => ${call};`;
const SRC = JSON.stringify(join(root, 'src/index.ts'));
const DIST = JSON.stringify(join(root, 'dist/index.js'));
/**
 * What `me.retrieve()` loads on its first call: the `me` group's guards (plain functions, no zod: zod, the
 * validators and the group's schemas load only when a guard refuses an answer) and ky (every request goes
 * through ky, loaded by the first send).
 */
const ME_CALL = /(operation-guards\.me\.ts|dist\/operation-guards\.me-|node_modules\/ky\/)/;

const TARGETS: Target[] = [
  { name: 'shop-mgmt', contents: sdk('src/index.ts'), limitKb: 35, installed: 'dist/node/index.js' },
  {
    name: 'app: shop.me.retrieve()',
    contents: app(`import { ShopClient } from ${SRC};`, "new ShopClient({ apiKey: 'k' }).me.retrieve()"),
    firstCall: ME_CALL,
  },
  {
    name: 'app: dist, me.retrieve()',
    contents: app(`import { ShopClient } from ${DIST};`, "new ShopClient({ apiKey: 'k' }).me.retrieve()"),
    firstCall: ME_CALL,
  },
  {
    // An application that uses zod 4 itself: one zod in its bundle when dist/ imports the same zod.
    name: 'app: dist + its own zod',
    contents: app(
      `import { ShopClient } from ${DIST};\nimport * as z from 'zod/mini';\nexport const Mine = z.object({ a: z.string() });`,
      "new ShopClient({ apiKey: 'k' }).me.retrieve()",
    ),
    firstCall: ME_CALL,
  },
  {
    name: 'app: openai models.list()',
    contents: app("import OpenAI from 'openai';", "new OpenAI({ apiKey: 'k' }).models.list()"),
  },
  {
    name: 'app: stripe customers.list',
    contents: app("import Stripe from 'stripe';", "new Stripe('k').customers.list()"),
  },
  { name: 'shop-mgmt/schemas', contents: sdk('src/schemas.ts'), installed: 'dist/node/schemas.js' },
  {
    name: 'shop-mgmt/webhooks',
    contents: sdk('src/webhooks/index.ts'),
    installed: 'dist/node/webhooks/index.js',
  },
  {
    name: 'shop-mgmt/webhooks/verify',
    contents: sdk('src/webhooks/verify-only.ts'),
    limitKb: 5,
    installed: 'dist/node/webhooks/verify.js',
  },
  {
    name: 'shop-mgmt/webhooks/redis',
    contents: sdk('src/webhooks/redis.ts'),
    installed: 'dist/node/webhooks/redis.js',
  },
  {
    name: 'shop-mgmt/testing',
    contents: sdk('src/testing/index.ts'),
    installed: 'dist/node/testing/index.js',
  },
  // What the main entry's import costs by itself because of ky: on Node, ky's module-level feature test
  // constructs a `Request`, which loads the runtime's fetch implementation.
  { name: 'ky (alone)', contents: "export { default } from 'ky';", installed: 'ky' },
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
  /** The entry file, in a directory of its own with its chunks. */
  readonly file: string;
  /** The chunks the entry can load later with `import()`, and the chunks they import. */
  readonly lazyFiles: readonly string[];
  /** Minified and min+gz bytes of the entry and its static imports: what importing it loads. */
  readonly minBytes: number;
  readonly gzBytes: number;
  /** The same with every chunk it can load with `import()`: what a first call has loaded. */
  readonly allMinBytes: number;
  readonly allGzBytes: number;
  /** Where ky is: loaded with the entry, in a chunk the first call loads, or not at all. */
  readonly ky: 'in' | 'lazy' | 'not in';
  readonly zod: string;
  /** Copies of zod's core in the whole bundle (each defines `__zod_globalConfig` once). */
  readonly zodCopies: number;
}

type Outputs = Record<string, { imports: { path: string; kind: string }[] }>;

/** The output files reachable from `from` (itself included), following static imports, or any import. */
function reachable(outputs: Outputs, from: string, dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !outputs[file]) return;
    seen.add(file);
    for (const { path, kind } of outputs[file].imports)
      if (kind === 'import-statement' || (dynamic && kind === 'dynamic-import')) visit(path);
  };
  visit(from);
  return seen;
}

async function bundle(target: Target, dir: string, index: number): Promise<Measured> {
  const outdir = join(dir, `target-${index}`);
  const result = await build({
    stdin: { contents: target.contents, resolveDir: root, loader: 'ts', sourcefile: `${target.name}.ts` },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    splitting: true,
    outdir,
    entryNames: 'entry',
    chunkNames: '[name]-[hash]',
    external: ['msw', 'msw/*'],
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  mkdirSync(outdir, { recursive: true });
  const sizes = new Map<string, { min: number; gz: number }>();
  let zodCopies = 0;
  for (const output of result.outputFiles) {
    zodCopies += output.text.match(/\.__zod_globalConfig\?\?\(/g)?.length ?? 0;
    writeFileSync(output.path, output.contents);
    const key = relative(root, output.path);
    sizes.set(key, { min: output.contents.length, gz: gzipSync(output.contents, { level: 9 }).length });
  }
  const outputs = result.metafile.outputs as unknown as Outputs;
  const entry = Object.keys(outputs).find((name) => /\/entry\.js$/.test(name))!;
  const onImport = reachable(outputs, entry, false);
  let all = reachable(outputs, entry, true);
  if (target.firstCall) {
    // The entry's static set, and the lazy chunks the call loads with the chunks they import statically.
    const pattern = target.firstCall;
    const called = new Set(onImport);
    for (const file of all) {
      const inputs = Object.keys(result.metafile.outputs[file]?.inputs ?? {});
      if (!onImport.has(file) && inputs.some((input) => pattern.test(input)))
        for (const needed of reachable(outputs, file, false)) called.add(needed);
    }
    all = called;
  }
  const sum = (files: Set<string>, key: 'min' | 'gz') =>
    [...files].reduce((total, file) => total + (sizes.get(file)?.[key] ?? 0), 0);
  const inputsOf = (files: Set<string>) =>
    [...files].flatMap((file) => Object.keys(result.metafile.outputs[file]?.inputs ?? {}));
  const inputs = inputsOf(all);
  const zodFiles = inputs.filter((input) => input.includes('node_modules/zod/'));
  const zodOnImport = inputsOf(onImport).some((input) => input.includes('node_modules/zod/'));
  const zod =
    zodFiles.length === 0
      ? 'none'
      : `${zodFiles.some((input) => input.includes('/v4/classic/')) ? 'classic' : 'mini'}` +
        `${zodFiles.some((input) => input.endsWith('/core/compile.js')) ? ' + compile' : ''}` +
        `${zodOnImport ? '' : ' (lazy)'}`;
  return {
    target,
    file: join(root, entry),
    lazyFiles: [...all].filter((file) => !onImport.has(file)).map((file) => join(root, file)),
    minBytes: sum(onImport, 'min'),
    gzBytes: sum(onImport, 'gz'),
    allMinBytes: sum(all, 'min'),
    allGzBytes: sum(all, 'gz'),
    ky: inputsOf(onImport).some((input) => input.includes('node_modules/ky/'))
      ? 'in'
      : inputs.some((input) => input.includes('node_modules/ky/'))
        ? 'lazy'
        : 'not in',
    zod,
    zodCopies,
  };
}

/** A file path as a file URL; a package name (resolved from the repository root) as it is. */
const specifier = (target: string) => (target.startsWith('/') ? pathToFileURL(target).href : target);

/** One fresh process: milliseconds spent in `await import(file)`, then importing `later` (the lazy chunks). */
function importOnce(file: string, later: readonly string[] = []): number {
  const imports = [file, ...later].map((f) => `await import(${JSON.stringify(specifier(f))});`).join(' ');
  const script = `const t = performance.now(); ${imports} process.stdout.write(String(performance.now() - t));`;
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
  const dir = mkdtempSync(join(tmpdir(), 'shop-mgmt-bench-size-'));
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
    // Each job is timed in fresh processes: an entry alone, an entry then its lazy chunks, an installed form.
    const jobs = new Map<string, { file: string; later: readonly string[] }>();
    jobs.set(empty, { file: empty, later: [] });
    for (const m of measured) {
      jobs.set(m.file, { file: m.file, later: [] });
      if (m.lazyFiles.length > 0) jobs.set(`${m.file}+lazy`, { file: m.file, later: m.lazyFiles });
    }
    for (const file of installed.values()) jobs.set(file, { file, later: [] });
    for (const job of jobs.values()) importOnce(job.file, job.later); // warm the file system cache
    const times = new Map<string, number[]>([...jobs.keys()].map((key) => [key, []]));
    const keys = [...jobs.keys()];
    for (let round = 0; round < SAMPLES; round++) {
      const order = round % 2 ? [...keys].reverse() : keys;
      for (const key of order) {
        const job = jobs.get(key)!;
        times.get(key)!.push(importOnce(job.file, job.later));
      }
    }
    const emptyMs = median(times.get(empty)!);
    const ms = (key: string | undefined) =>
      key === undefined || !times.has(key) ? 'n/a' : (median(times.get(key)!) - emptyMs).toFixed(1);

    console.log(
      `bench/size: Node ${process.version}; esbuild, dependencies bundled, code splitting, minified, gzip -9 ` +
        `per file; import = median of ${SAMPLES} fresh processes minus an empty import (${emptyMs.toFixed(1)} ms)\n` +
        'on import: the entry and its static imports; first call: that and every chunk it can load with ' +
        'import(); + lazy: the import, then those chunks\n',
    );
    console.log(
      `${'entry'.padEnd(26)}${'on import'.padStart(22)}${'first call'.padStart(22)}${'import ms'.padStart(11)}` +
        `${'+ lazy ms'.padStart(11)}${'installed'.padStart(11)}  zod / ky / target`,
    );
    console.log(`${''.padEnd(26)}${'min / min+gz kB'.padStart(22)}${'min / min+gz kB'.padStart(22)}`);
    for (const m of measured) {
      const limit =
        m.target.limitKb === undefined
          ? ''
          : `  target <= ${m.target.limitKb} kB on import: ${m.gzBytes <= m.target.limitKb * 1000 ? 'met' : 'NOT met'}`;
      const about =
        m.target.name.startsWith('shop-mgmt') || m.target.name.includes('dist')
          ? `  zod ${m.zod} (${m.zodCopies} ${m.zodCopies === 1 ? 'copy' : 'copies'}), ky ${m.ky}${limit}`
          : '';
      const pair = (min: number, gz: number) => `${kb(min)} / ${kb(gz)}`.padStart(22);
      console.log(
        `${m.target.name.padEnd(26)}${pair(m.minBytes, m.gzBytes)}${pair(m.allMinBytes, m.allGzBytes)}` +
          `${ms(m.file).padStart(11)}${(m.lazyFiles.length > 0 ? ms(`${m.file}+lazy`) : '-').padStart(11)}` +
          `${ms(installed.get(m)).padStart(11)}${about}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
