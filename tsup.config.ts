import { defineConfig } from 'tsup';

const entry = {
  index: 'src/index.ts',
  'webhooks/index': 'src/webhooks/index.ts',
  'webhooks/verify': 'src/webhooks/verify-only.ts',
  'webhooks/redis': 'src/webhooks/redis.ts',
  redis: 'src/redis.ts',
  schemas: 'src/schemas.ts',
  'testing/index': 'src/testing/index.ts',
};

export default defineConfig([
  {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    splitting: true,
    treeshake: true,
    // zod is bundled: only the zod/mini functions the SDK calls, where Node would otherwise load all of
    // zod/mini and its 40 locales on import (~60 ms). The types still come from the zod dependency.
    // Splitting also puts what the transport loads with import() on its first call (the validators with
    // zod, the generated schemas) in chunks of their own, which importing the main entry does not load.
    noExternal: ['zod'],
  },
  {
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    platform: 'node',
    // p-retry and ky ship ESM only: a CJS build that merely require()s them throws at load time, so they are
    // bundled; zod/mini is bundled as in the ESM build.
    noExternal: ['p-retry', 'is-network-error', 'ky', 'zod'],
  },
  {
    // The `shop-sdk` command (package.json "bin"): Node only, ESM is enough for a bin.
    entry: { 'cli/index': 'src/cli/index.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
