// Mutation testing of the modules that keep data (issue 35). `npm run test:mutation` runs every group below;
// `npm run test:mutation -- --mutate src/webhooks/verify.ts` one file (its group's tests run). Too slow for
// .ci/run (the webhooks group alone takes tens of minutes on 2 cores): run by hand, or on demand over the
// files a change touches. See CONTRIBUTING.md, "Mutation testing".

/** Each group: the code mutated and the test files that may kill its mutants (nothing else runs). */
const GROUPS = {
  webhooks: {
    mutate: [
      'src/webhooks/verify.ts',
      'src/webhooks/headers.ts',
      'src/webhooks/hmac.ts',
      'src/webhooks/dedupe.ts',
    ],
    testFiles: [
      'test/webhooks/verify.test.ts',
      'test/webhooks/verify.property.test.ts',
      'test/webhooks/verify-entry.test.ts',
      'test/webhooks/unsigned-headers.test.ts',
      'test/webhooks/dedupe.test.ts',
      'test/webhooks/*-mutants.test.ts',
    ],
  },
  transport: {
    mutate: [
      'src/core/transport/retry.ts',
      'src/core/transport/call.ts',
      // prepare()'s Idempotency-Key, and resolveIdempotencyKey
      'src/core/transport/request.ts:86-91',
      'src/core/transport/request.ts:137-159',
      // #onFailure: the wait taken before a retry, or the deadline refusing it (its lines move with the file:
      // check them when transport.ts changes)
      'src/core/transport/transport.ts:465-505',
    ],
    testFiles: [
      'test/core/retry.test.ts',
      'test/core/idempotency.test.ts',
      'test/core/recovery.test.ts',
      'test/core/hostile-answers.test.ts',
      // the beforeRetry hook's bound (what is left of the deadline after the wait)
      'test/core/hooks.test.ts',
      'test/core/*-mutants.test.ts',
    ],
  },
  // The crash and fault tests are left out (processes killed, minutes a run), and so is the 50,000-row
  // backfill: a static mutant runs every file of its group.
  sync: {
    mutate: [
      'src/sync/inbox/inbox.ts',
      'src/sync/inbox/sql-store.ts',
      'src/sync/engine/store.ts',
      'src/sync/engine/apply-event.ts',
    ],
    testFiles: [
      'test/sync/inbox/inbox.test.ts',
      'test/sync/inbox/worker.test.ts',
      'test/sync/inbox/*-mutants.test.ts',
      'test/sync/engine/rules.test.ts',
      'test/sync/engine/odd-bytes.test.ts',
      'test/sync/engine/*-mutants.test.ts',
    ],
  },
};

/** The groups a `--mutate` (or `-m`) on the command line falls in; every group without one. */
function chosenGroups(argv) {
  const at = argv.findIndex((arg) => arg === '--mutate' || arg === '-m' || arg.startsWith('--mutate='));
  if (at === -1) return Object.values(GROUPS);
  const value = argv[at].startsWith('--mutate=') ? argv[at].slice('--mutate='.length) : (argv[at + 1] ?? '');
  const files = value.split(',').map((file) => file.replace(/:.*$/, ''));
  return Object.values(GROUPS).filter((group) =>
    group.mutate.some((pattern) => files.includes(pattern.replace(/:.*$/, ''))),
  );
}

const groups = chosenGroups(process.argv);

// The test files go to vitest (vitest.stryker.config.ts reads this variable; Stryker's child processes
// inherit it), not to Stryker's own `testFiles` option: with that option set, Stryker 9.6.1 plans a static
// mutant (module-level code, e.g. a constant) with the option's file list as its test filter, which makes it
// activate the mutant at runtime (mutant-test-planner.js: `mutantActivation: testFilter ? 'runtime' :
// 'static'`), after the module was evaluated: a mutated constant was never seen by any test.
// A run may name fewer files itself (a JSON array in the same variable), e.g. to leave out the slow ones.
process.env.SHOP_MUTATION_TEST_FILES ??= JSON.stringify(
  // A file outside every group runs every group's tests.
  (groups.length > 0 ? groups : Object.values(GROUPS)).flatMap((group) => group.testFiles),
);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: groups.flatMap((group) => group.mutate),
  // The machine is shared: one test runner (and one checker) at a time.
  concurrency: 1,
  coverageAnalysis: 'perTest',
  ignorePatterns: ['dist', 'coverage', 'reports', 'docs/api', '.tmp', 'shop.db*', '.stryker-tmp*'],
  timeoutMS: 20_000,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
