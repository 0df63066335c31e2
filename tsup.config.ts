import { defineConfig, type Options } from 'tsup';

// One line per public subpath: the key is the file under dist/ (package.json's exports point at it).
const entry = {
  index: 'src/index.ts',
  'webhooks/index': 'src/webhooks/index.ts',
  'webhooks/verify': 'src/webhooks/verify-only.ts',
  'webhooks/redis': 'src/webhooks/redis.ts',
  redis: 'src/redis.ts',
  'sync/index': 'src/sync/engine/index.ts',
  'inbox/index': 'src/sync/inbox/index.ts',
  'inbox/sqlite': 'src/sync/inbox/sqlite.ts',
  'inbox/postgres': 'src/sync/inbox/postgres.ts',
  'inbox/redis': 'src/sync/inbox/redis.ts',
  'inbox/bullmq': 'src/sync/inbox/bullmq.ts',
  'inbox/d1': 'src/sync/inbox/d1.ts',
  schemas: 'src/schemas.ts',
  otel: 'src/otel.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw': 'src/testing/msw-entry.ts',
};

const shared: Options = {
  entry,
  dts: true,
  // No source maps: the output is unminified and keeps the source's names, so a stack trace or a debugger
  // reads it as is; the maps were 12 of the package's 19 MB, mostly copies of src/ and of bundled zod and ky.
  sourcemap: false,
  target: 'es2022',
  // Both formats split: the entries share chunks, so the package has one copy of each error class per
  // module system and an error thrown under one subpath is `instanceof` the class exported by another.
  splitting: true,
  treeshake: true,
  // Keep `node:http` as written: without the prefix a Workers or browser bundler cannot tell a Node
  // builtin (loaded lazily by sandbox.listen() only) from a package it should resolve.
  removeNodeProtocol: false,
  external: ['msw', 'better-sqlite3', 'pg', '@opentelemetry/api', 'bullmq', /^node:/],
};

// dist/ is emptied by the build script before tsup runs: the three builds below run side by side, and a
// `clean` in one of them could remove what another has already written.
export default defineConfig([
  {
    ...shared,
    format: ['esm'],
    platform: 'neutral',
    // zod stays a dependency this build imports (`zod/mini`), so an application bundling the SDK with zod 4
    // of its own ships one zod. This is the build bundlers and non-Node runtimes resolve ("default"); Node
    // takes dist/node/ (below). The validators and each resource group's schemas are chunks of their own,
    // loaded on the first call, not on import.
  },
  {
    ...shared,
    // What Node resolves (the "node" condition of package.json's exports): the same ESM build with the zod/mini
    // functions the SDK calls bundled, because zod/mini from node_modules loads its ~80 files and 40 locales on
    // the first call, 3-5x the time of one bundled chunk (bench/README.md). Types come from dist/*.d.ts.
    format: ['esm'],
    platform: 'node',
    outDir: 'dist/node',
    dts: false,
    noExternal: ['zod'],
  },
  {
    ...shared,
    format: ['cjs'],
    platform: 'node',
    // p-retry and ky ship ESM only: a CJS build that merely require()s them throws at load time, so they are
    // bundled. zod too: its English locale is `zod/v4/locales/en.js` to import() but `en.cjs` to require(),
    // and a CommonJS application is a Node one, which bundles nothing to ship twice.
    noExternal: ['p-retry', 'is-network-error', 'ky', 'zod'],
  },
  {
    // The `shop-mgmt` command (package.json "bin"): Node only, ESM is enough for a bin.
    entry: { 'cli/index': 'src/cli/index.ts' },
    format: ['esm'],
    sourcemap: false,
    target: 'es2022',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
