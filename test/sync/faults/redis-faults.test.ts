// The Redis inbox under server faults, from the outside: a receiver and worker in their own process
// (redis-child.ts) on a redis-server of this file's own, run with an append-only file written on every write
// (`appendonly yes`, `appendfsync always`, as the production guide asks), so a restart keeps the inbox. This
// file sends signed deliveries the way the service does (retrying every non-2xx) while Redis is killed and
// started again, stopped for 10 s, SIGSTOPped past the worker's 2 s lease, and has every client connection
// killed (`CLIENT KILL TYPE normal`) every 0.7 s. Each time: the process lives (no exit), a delivery made while
// Redis is away is answered 503 (node-redis queues the insert until it reconnects, and the receiver answers 503
// at its 500 ms `storeTimeoutMs`), and once Redis is back every event is processed: 0 lost. The Redis store is
// at-least-once (an effect made before a done mark that did not reach Redis runs again): applied twice is
// counted and printed. Every error the receiver and the worker are told is typed: a DatabaseUnavailableError
// (the client's error its cause) or the receiver's StoreTimeoutError, never the client's plain Error. A last case restarts a second server that keeps nothing: the worker must make the
// consumer group again and process every event received after the restart.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../../setup/redis-server.js';
import { bundleChild } from '../../support/child-bundle.js';
import { type FaultFigures, type FaultRun, faultRun, faultSummary } from './fault-run.js';

const SECRET = 'whsec_redis_faults_test_secret';
const LEASE_SECONDS = 2;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe.skipIf(!hasRedisServer())('the Redis inbox in its own process while Redis fails', () => {
  let server: OwnRedis;
  let child: Awaited<ReturnType<typeof bundleChild>> | undefined;
  let workDir: string;
  const figures: FaultFigures[] = [];

  /** One command on a connection of its own (the connection-killing case ends connections between checks). */
  async function command(args: string[]): Promise<unknown> {
    const client = createClient({ url: server.url, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await client.sendCommand(args);
    } finally {
      client.destroy();
    }
  }

  beforeAll(async () => {
    child = await bundleChild('test/sync/faults/redis-child.ts', ['redis']);
    workDir = join(child.script, '..');
    mkdirSync(join(workDir, 'aof'));
    server = await startOwnRedis({ appendOnlyDir: join(workDir, 'aof') });
  });

  afterAll(async () => {
    console.log(faultSummary('redis', figures));
    server?.thaw();
    await server?.stop();
    child?.cleanup();
  });

  /** The child on a key prefix of its own, through {@link faultRun}; effects are lines of a file. */
  async function runFault(
    fault: string,
    during: (probe: () => Promise<number>) => Promise<void>,
  ): Promise<FaultRun> {
    const keyPrefix = `{fault_${fault}}:`;
    const effectsFile = join(workDir, `effects-${fault}.txt`);
    const result = await faultRun({
      fault,
      childScript: child!.script,
      secret: SECRET,
      env: {
        REDIS_URL: server.url,
        KEY_PREFIX: keyPrefix,
        EFFECTS_FILE: effectsFile,
        LEASE_SECONDS: String(LEASE_SECONDS),
      },
      during,
      reported: /^error (receiver|worker|client) \w+:/,
      counts: async () => {
        const applied = new Map<string, number>();
        const lines = existsSync(effectsFile) ? readFileSync(effectsFile, 'utf8').split('\n') : [];
        for (const line of lines) if (line !== '') applied.set(line, (applied.get(line) ?? 0) + 1);
        return {
          applied,
          open: Number(await command(['ZCARD', `${keyPrefix}all`])),
          dead: Number(await command(['ZCARD', `${keyPrefix}dead`])),
        };
      },
    });
    figures.push(result);
    return result;
  }

  const expectSurvived = (run: FaultRun) => {
    expectLived(run);
    expect(run.lost).toBe(0);
  };

  /** The process lived and answered, and was told typed errors only; says nothing of what was lost. */
  const expectLived = (run: FaultRun) => {
    expect(run.events).toBeGreaterThanOrEqual(20);
    const told = Object.keys(JSON.parse(run.errors) as Record<string, number>).filter((key) =>
      /^(receiver|worker) /.test(key),
    );
    expect(told.filter((key) => !/ (DatabaseUnavailableError|StoreTimeoutError)$/.test(key))).toEqual([]);
    expect(run.unexpected).toEqual([]);
    expect(run.exits).toBe(0);
    expect(run.hangs).toBe(0);
    expect(run.dead).toBe(0);
    expect(run.otherAnswers).toBe(0);
  };

  it('killed and started again (AOF, fsync always): 503 while it is down, then everything processed', async () => {
    const probes: number[] = [];
    const run = await runFault('restart', async (probe) => {
      await server.stop();
      probes.push(await probe());
      await server.start();
    });
    expect(probes).toEqual([503]);
    expectSurvived(run);
  });

  it('stopped for 10 s: 503 all along, then everything processed', async () => {
    const probes: number[] = [];
    const run = await runFault('stopped', async (probe) => {
      await server.stop();
      probes.push(await probe());
      await sleep(5000);
      probes.push(await probe());
      await sleep(5000);
      probes.push(await probe());
      await server.start();
    });
    expect(probes).toEqual([503, 503, 503]);
    expectSurvived(run);
  });

  it(`SIGSTOPped for ${LEASE_SECONDS + 2} s, past the worker's ${LEASE_SECONDS} s lease: 503 while stalled, then everything processed`, async () => {
    const probes: number[] = [];
    const run = await runFault('sigstop', async (probe) => {
      server.freeze();
      try {
        probes.push(await probe());
        await sleep((LEASE_SECONDS + 2) * 1000);
      } finally {
        server.thaw();
      }
    });
    expect(probes).toEqual([503]);
    expectSurvived(run);
  });

  it('every client connection killed every 0.7 s for 5 s: the process lives and everything is processed', async () => {
    let killed = 0;
    const run = await runFault('clientkill', async () => {
      const until = Date.now() + 5000;
      while (Date.now() < until) {
        killed += Number(await command(['CLIENT', 'KILL', 'TYPE', 'normal']));
        await sleep(700);
      }
    });
    console.log(`[db faults, redis] connections killed: ${killed}`);
    expect(killed).toBeGreaterThanOrEqual(5);
    expectSurvived(run);
  });

  it('killed and started WITHOUT persistence: the worker makes the consumer group again and processes what comes after', async () => {
    const persistent = server;
    server = await startOwnRedis();
    let restartedAt = 0;
    try {
      const run = await runFault('restart_no_aof', async () => {
        await server.stop();
        await server.start();
        restartedAt = Date.now();
      });
      const after = [...run.ackedAt].filter(([, at]) => at > restartedAt).map(([id]) => id);
      expect(after.length).toBeGreaterThanOrEqual(5);
      // Every event Redis acknowledged after the restart is processed: the consumer group the restart took
      // with it is made again.
      expect(after.filter((id) => !run.applied.has(id))).toEqual([]);
      expectLived(run);
    } finally {
      await server.stop();
      server = persistent;
    }
  });
});
