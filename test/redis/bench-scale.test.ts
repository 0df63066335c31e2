// bench/scale.ts must stop by itself, Redis restart included, and print a line for every run of every mode
// (BENCH_RUNS a mode); its figures are read by people, not asserted here.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasRedisServer } from '../setup/redis-server.js';

const root = resolve(import.meta.dirname, '../..');

describe.skipIf(!hasRedisServer())('bench/scale.ts', () => {
  it('runs a short shared run and a Redis restart to the end, and says what it measured', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/scale.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, BENCH_SECONDS: '4', BENCH_MODES: 'shared,restart', BENCH_RUNS: '2' },
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    for (const index of [1, 2]) {
      expect(run.stdout).toMatch(
        new RegExp(
          `^shared +run ${index}/2 \\| 429s +\\d+ \\| cap used [\\d.]+ % / [\\d.]+ % \\| worker spread`,
          'm',
        ),
      );
      expect(run.stdout).toMatch(
        new RegExp(`^restart +run ${index}/2 \\| .*\\| hung 0 \\| untyped 0 \\|`, 'm'),
      );
    }
  }, 120_000);
});
