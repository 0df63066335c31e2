import { defineConfig, type Options } from 'tsup';

// One line per public subpath: the key is the file under dist/ (package.json's exports point at it).
const entry = {
  index: 'src/index.ts',
  'webhooks/index': 'src/webhooks/index.ts',
  'webhooks/verify': 'src/webhooks/verify-only.ts',
  'webhooks/redis': 'src/webhooks/redis.ts',
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
  external: ['msw', /^node:/],
};

export default defineConfig([
  { ...shared, format: ['esm'], clean: true, platform: 'neutral' },
  {
    ...shared,
    format: ['cjs'],
    platform: 'node',
    // p-retry ships ESM only: a CJS build that merely require()s it throws at load time, so it is bundled.
    noExternal: ['p-retry', 'is-network-error'],
  },
]);
