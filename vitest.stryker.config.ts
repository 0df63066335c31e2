import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The vitest setup of mutation runs (stryker.config.mjs): the project's config with only the test files that
// cover the mutated modules: those of the groups a run mutates (SHOP_MUTATION_TEST_FILES, set by
// stryker.config.mjs), or every group's. With coverageAnalysis 'perTest' each mutant runs only the tests
// that reached it; a static mutant (module-level code) runs every file.
export const MUTATION_TEST_FILES = [
  // webhooks: verification, signature header parsing, HMAC, dedupe
  'test/webhooks/verify.test.ts',
  'test/webhooks/verify.property.test.ts',
  'test/webhooks/verify-entry.test.ts',
  'test/webhooks/unsigned-headers.test.ts',
  'test/webhooks/dedupe.test.ts',
  'test/webhooks/*-mutants.test.ts',
  // transport: retry rules, the Idempotency-Key, what a failed call may have done
  'test/core/retry.test.ts',
  'test/core/idempotency.test.ts',
  'test/core/recovery.test.ts',
  'test/core/hostile-answers.test.ts',
  'test/core/hooks.test.ts',
  'test/core/*-mutants.test.ts',
  // sync: the inbox, the engine's store and apply rules (measured only; the crash tests are left out: they
  // spawn processes and kill them, minutes per run)
  'test/sync/inbox/inbox.test.ts',
  'test/sync/inbox/worker.test.ts',
  'test/sync/inbox/*-mutants.test.ts',
  'test/sync/engine/rules.test.ts',
  'test/sync/engine/odd-bytes.test.ts',
  'test/sync/engine/*-mutants.test.ts',
];

const chosen = process.env.SHOP_MUTATION_TEST_FILES;

// Spread rather than mergeConfig, which would append to the base's `include` instead of replacing it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: chosen ? (JSON.parse(chosen) as string[]) : MUTATION_TEST_FILES,
    maxWorkers: 1,
  },
});
