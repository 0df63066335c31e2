import { defineConfig } from 'vitest/config';

// Test files run in parallel child processes (vitest's default pool, forks). Vitest's own default is one
// worker fewer than the machine's cores: one at a time on a 2-core machine, where most of the slowest files
// wait on child processes, servers and timers rather than on the CPU. Two workers measured best on 2 cores
// (README.md, "Developing"); SHOP_TEST_WORKERS overrides the count (`SHOP_TEST_WORKERS=1 npm test`).
const workers = Number(process.env.SHOP_TEST_WORKERS) || 2;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    maxWorkers: workers,
    // A timeout bounds a hang, not a speed (no test asserts one with it): on a loaded machine a test that
    // spawns tsx, builds the CLI or seeds a database takes several times its idle time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
