// miniflare (workerd) for the tests of shop-mgmt/inbox/d1, from the runtime matrix's install
// (test/runtimes/node_modules, put there by `npm ci --prefix test/runtimes`: .ci/run's npm ci step does it
// before the tests). Without it the D1 tests are skipped with the reason below; in CI that is an error, as a
// missing redis-server or PostgreSQL is (test/setup/global-setup.ts).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const RUNTIMES = fileURLToPath(new URL('../runtimes/', import.meta.url));

/** Why the miniflare tests cannot run here, or null when they can. */
export const miniflareMissing: string | null = existsSync(`${RUNTIMES}node_modules/miniflare/package.json`)
  ? null
  : 'miniflare is not installed in test/runtimes/node_modules: run `npm ci --prefix test/runtimes` (as .ci/run does) to run the D1 inbox tests';

if (miniflareMissing) {
  if (process.env.CI) throw new Error(`[shop-mgmt tests] ${miniflareMissing}`);
  console.warn(`[shop-mgmt tests] ${miniflareMissing}; they are skipped.`);
}

/** The little of miniflare's `Miniflare` the tests use. */
export interface MiniflareLike {
  readonly ready: Promise<URL>;
  getD1Database(binding: string): Promise<unknown>;
  dispatchFetch(url: string, init?: RequestInit): Promise<Response>;
  getWorker(): Promise<{
    scheduled(options?: { scheduledTime?: Date; cron?: string }): Promise<{ outcome: string }>;
  }>;
  dispose(): Promise<void>;
}

/** miniflare's `new Miniflare(options)`; throws when it is not installed (check {@link miniflareMissing}). */
export function newMiniflare(options: Record<string, unknown>): MiniflareLike {
  const { Miniflare } = createRequire(`${RUNTIMES}package.json`)('miniflare') as {
    Miniflare: new (options: Record<string, unknown>) => MiniflareLike;
  };
  return new Miniflare(options);
}

/** The workerd version the installed miniflare runs (for the tests' names and the report). */
export function miniflareVersion(): string {
  const require = createRequire(`${RUNTIMES}package.json`);
  return (require('miniflare/package.json') as { version: string }).version;
}

let shared: Promise<{ mf: MiniflareLike; db: unknown }> | undefined;

/**
 * One workerd per test file with an empty D1 database (in memory), started on first use: the tests give each
 * store a table of its own. Disposed after the file (registered below, as the file imports this module), so
 * a test process that runs several files does not keep one workerd per file.
 */
export async function sharedD1(): Promise<unknown> {
  shared ??= (async () => {
    const mf = newMiniflare({
      modules: true,
      script: 'export default { fetch() { return new Response(null, { status: 204 }); } };',
      compatibilityDate: '2025-09-01',
      d1Databases: ['DB'],
    });
    return { mf, db: await mf.getD1Database('DB') };
  })();
  return (await shared).db;
}

afterAll(async () => {
  const started = shared;
  shared = undefined;
  if (started) await (await started).mf.dispose();
});
