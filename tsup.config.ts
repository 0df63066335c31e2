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
  schemas: 'src/schemas.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw': 'src/testing/msw-entry.ts',
};

const shared: Options = {
  entry,
  dts: true,
  sourcemap: true,
  target: 'es2022',
  // Both formats split: the entries share chunks, so the package has one copy of each error class per
  // module system and an error thrown under one subpath is `instanceof` the class exported by another.
  splitting: true,
  treeshake: true,
  // Keep `node:http` as written: without the prefix a Workers or browser bundler cannot tell a Node
  // builtin (loaded lazily by sandbox.listen() only) from a package it should resolve.
  removeNodeProtocol: false,
  external: ['msw', 'better-sqlite3', 'pg', /^node:/],
};

// dist/ is emptied by the build script before tsup runs: the three builds below run side by side, and a
// `clean` in one of them could remove what another has already written.
export default defineConfig([
  {
    ...shared,
    format: ['esm'],
    platform: 'neutral',
    // zod is bundled: only the zod/mini functions the SDK calls, where Node would otherwise load all of
    // zod/mini and its 40 locales on import (~60 ms). The types still come from the zod dependency.
    // Splitting also puts what the transport loads with import() on its first call (the validators with
    // zod, the generated schemas) in chunks of their own, which importing the main entry does not load.
    noExternal: ['zod'],
  },
  {
    ...shared,
    format: ['cjs'],
    platform: 'node',
    // p-retry and ky ship ESM only: a CJS build that merely require()s them throws at load time, so they are
    // bundled; zod/mini is bundled as in the ESM build.
    noExternal: ['p-retry', 'is-network-error', 'ky', 'zod'],
  },
  {
    // The `shop-mgmt` command (package.json "bin"): Node only, ESM is enough for a bin.
    entry: { 'cli/index': 'src/cli/index.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
