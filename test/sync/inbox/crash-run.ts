// The crash test's driver (crash-sqlite.test.ts, crash-redis.test.ts): a partner's receiver (webhook handler, worker, feed catch-up) in a child process that is SIGKILLed
// at random points, by itself (before the insert, between the insert and the answer, mid-handler,
// mid-heartbeat) and from outside at random times, while the sandbox delivers more than 500 events with its
// retry schedule (its clock moved forward between rounds) and the catch-up reads the feed. A supervisor
// restarts the child at once, as a platform would. At the end every event must have had its effect: 0 lost;
// with the SQLite inbox (the effect written through the worker's transaction) none twice either.

import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { ShopClient } from '../../../src/client.js';
import { openSqliteDatabase } from '../../../src/sync/inbox/sqlite.js';
import { createSandbox } from '../../../src/testing/index.js';
import { freePort } from '../../setup/redis-server.js';

export const DELIVERIES = 520;
const ROUNDS = 20;
const root = resolve(import.meta.dirname, '../../..');
export let dir: string;
let childScript: string;
let bundleDir: string;

/** Bundles the child once per test file and cleans up after it. */
export function useCrashChild(): void {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-crash-'));
    // Inside the repository, so the child's bare imports (better-sqlite3, redis) resolve from node_modules.
    const cache = join(root, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    bundleDir = mkdtempSync(join(cache, 'inbox-crash-'));
    childScript = join(bundleDir, 'child.mjs');
    // Bundled once, so each restart is a plain `node` start (tens of ms), not a TypeScript compile.
    await build({
      entryPoints: [join(root, 'test/sync/inbox/crash-child.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: childScript,
      external: ['better-sqlite3', 'redis', 'pg'],
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
      logLevel: 'silent',
    });
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(bundleDir, { recursive: true, force: true });
  });
}

export interface CrashRun {
  readonly created: string[];
  readonly effects: string[];
  readonly kills: Record<string, number>;
}

export async function crashRun(
  mode: 'sqlite-inbox' | 'postgres-inbox' | 'redis-dedupe',
  extraEnv: Record<string, string>,
): Promise<CrashRun> {
  const T0 = Date.now();
  const sandbox = createSandbox({
    now: T0,
    plan: 'enterprise',
    rateLimits: { perMinute: 1_000_000, perDay: null },
    webhookTimeoutMs: 3000,
  });
  const api = await sandbox.listen();
  const apiKey = sandbox.createKey();
  const port = await freePort();
  const { secret } = sandbox.webhooks.addEndpoint({
    url: `http://127.0.0.1:${port}/`,
    types: ['coupon.created'],
  });
  const shop = new ShopClient({ apiKey, baseUrl: api.url, maxRetries: 0 });
  const killLog = join(dir, `${mode}-kills.log`);
  const env = {
    ...process.env,
    ...extraEnv,
    MODE: mode,
    PORT: String(port),
    SECRET: secret,
    API_URL: api.url,
    API_KEY: apiKey,
    SINCE: new Date(T0 - 60_000).toISOString(),
    KILL_LOG: killLog,
  };

  // The supervisor: restarts the child whenever it dies, until told to stop.
  let child: ChildProcess | null = null;
  let crashP = '0.006';
  let supervising = true;
  let outsideKills = 0;
  let ready: Promise<void> = Promise.resolve();
  const spawnChild = () => {
    const started = fork(childScript, [], {
      env: { ...env, CRASH_P: crashP },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    child = started;
    ready = new Promise<void>((done) => {
      started.once('message', () => done());
      started.once('exit', () => done());
    });
    started.once('exit', () => {
      if (supervising && child === started) spawnChild();
    });
  };
  spawnChild();
  await ready;

  let made = 0;
  let round = 0;
  const perRound = Math.ceil(DELIVERIES / ROUNDS);
  const gaps = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000];
  while (made < DELIVERIES) {
    const batch = Math.min(perRound, DELIVERIES - made);
    for (let i = 0; i < batch; i++) {
      await shop.coupons.create({ code: `CRASH${round}X${i}`, name: 'crash test', percent_off: 5 } as never);
    }
    made += batch;
    // Every round, a kill from outside at a random moment of the deliveries (counted when it hit a live child).
    // On a loaded machine the deliveries may all be answered before that moment comes: then the kill lands
    // right after them, so every round still kills once from outside, whatever the machine's speed (the
    // self-inflicted kills at the named points stay random).
    let outsideFired = false;
    const killFromOutside = () => {
      outsideFired = true;
      if (child && child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))
        outsideKills++;
    };
    const outside = setTimeout(killFromOutside, Math.random() * 150);
    await sandbox.webhooks.flush();
    clearTimeout(outside);
    if (!outsideFired) {
      await ready;
      const live = child as ChildProcess | null;
      const exited = live && live.exitCode === null ? once(live, 'exit') : null;
      killFromOutside();
      if (exited) await exited;
    }
    await ready;
    sandbox.clock.advance(gaps[round % gaps.length]!);
    await sandbox.webhooks.flush();
    round++;
  }

  // No more crashes: the child restarts clean, the retries that are left go out, the catch-up reads the rest.
  crashP = '0';
  if (child!.exitCode === null && child!.signalCode === null && child!.kill('SIGKILL')) outsideKills++;
  await new Promise((r) => setTimeout(r, 100));
  await ready;
  for (let i = 0; i < 6; i++) {
    sandbox.clock.advance(10 * 3600_000);
    await sandbox.webhooks.flush();
  }
  const statuses: Record<string, number> = {};
  for (const attempt of sandbox.webhooks.deliveries()) {
    const key = String(attempt.httpStatus ?? attempt.error);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  console.log(`[crash ${mode}] delivery attempts by answer (last 1,000): ${JSON.stringify(statuses)}`);
  const created: string[] = [];
  for await (const event of shop.events.list({ type: 'coupon.created' })) created.push(event.id);

  const effectsNow = async (): Promise<string[]> => {
    if (mode === 'postgres-inbox') {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: extraEnv.PG_URL! });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT event_id FROM ${extraEnv.EFFECTS_TABLE!}`);
        return rows.map((row: { event_id: string }) => row.event_id);
      } finally {
        await client.end();
      }
    }
    if (mode === 'sqlite-inbox') {
      const db = await openSqliteDatabase(extraEnv.DB!);
      try {
        return (db.prepare('SELECT event_id FROM effects').all() as { event_id: string }[]).map(
          (row) => row.event_id,
        );
      } finally {
        db.close();
      }
    }
    return existsSync(extraEnv.EFFECTS!)
      ? readFileSync(extraEnv.EFFECTS!, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(' ')[0]!)
      : [];
  };
  const deadline = Date.now() + 20_000;
  let effects = await effectsNow();
  while (new Set(effects).size < created.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    effects = await effectsNow();
  }
  supervising = false;
  child!.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 50));
  effects = await effectsNow();
  await api.close();

  const kills: Record<string, number> = { outside: outsideKills };
  if (existsSync(killLog)) {
    for (const point of readFileSync(killLog, 'utf8').split('\n').filter(Boolean))
      kills[point] = (kills[point] ?? 0) + 1;
  }
  return { created, effects, kills };
}

export function report(name: string, run: CrashRun): { lost: number; twice: number; kills: number } {
  const distinct = new Set(run.effects);
  const lost = run.created.filter((id) => !distinct.has(id)).length;
  const twice = run.effects.length - distinct.size;
  const kills = Object.values(run.kills).reduce((sum, n) => sum + n, 0);
  console.log(
    `[crash ${name}] deliveries (events) ${run.created.length}, kills ${kills} ${JSON.stringify(run.kills)}, lost ${lost}, applied twice ${twice}`,
  );
  return { lost, twice, kills };
}
