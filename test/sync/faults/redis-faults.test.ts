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
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvent, signedDelivery } from '../../../src/testing/factories/index.js';
import { freePort, hasRedisServer, type OwnRedis, startOwnRedis } from '../../setup/redis-server.js';

const root = resolve(import.meta.dirname, '../../..');
const SECRET = 'whsec_redis_faults_test_secret';
const LEASE_SECONDS = 2;
/** The sender's own deadline (reference section 6): no answer within it is a hang. */
const SENDER_TIMEOUT_MS = 10_000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Figures {
  fault: string;
  events: number;
  lost: number;
  twice: number;
  dead: number;
  exits: number;
  hangs: number;
  answered503: number;
  otherAnswers: number;
  errors: string;
}

describe.skipIf(!hasRedisServer())('the Redis inbox in its own process while Redis fails', () => {
  let server: OwnRedis;
  let workDir: string;
  let childScript: string;
  const figures: Figures[] = [];

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
    const cache = join(root, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    workDir = mkdtempSync(join(cache, 'redis-faults-'));
    childScript = join(workDir, 'child.mjs');
    mkdirSync(join(workDir, 'aof'));
    [server] = await Promise.all([
      startOwnRedis({ appendOnlyDir: join(workDir, 'aof') }),
      build({
        entryPoints: [join(root, 'test/sync/faults/redis-child.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: childScript,
        external: ['redis'],
        banner: {
          js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        },
        logLevel: 'silent',
      }),
    ]);
  });

  const sum = (key: 'lost' | 'twice' | 'exits' | 'hangs' | 'answered503') =>
    figures.reduce((total, row) => total + row[key], 0);

  afterAll(async () => {
    console.log(
      `[db faults, redis] runs: ${figures.length}\n${figures
        .map((row) => JSON.stringify(row))
        .join(
          '\n',
        )}\n[db faults, redis] total: lost ${sum('lost')}, applied twice ${sum('twice')}, exits ${sum('exits')}, hangs ${sum('hangs')}, 503s ${sum('answered503')}`,
    );
    server?.thaw();
    await server?.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  /**
   * Starts the child on a key prefix of its own, sends an event every 100 ms from a second before `fault`
   * until a second after it, each retried until a 2xx, then waits until every event is processed (or 30 s
   * pass). `fault` gets `probe`: one delivery made now, with its first answer's status.
   */
  async function faultRun(
    fault: string,
    during: (probe: () => Promise<number>) => Promise<void>,
  ): Promise<Figures & { unexpected: string[]; applied: Map<string, number>; ackedAt: Map<string, number> }> {
    const keyPrefix = `{fault_${fault}}:`;
    const effectsFile = join(workDir, `effects-${fault}.txt`);
    const port = await freePort();
    const stderr: string[] = [];
    let child: ChildProcess | null = null;
    let exits = 0;
    let supervising = true;
    let ready: Promise<void> = Promise.resolve();
    const spawnChild = () => {
      const started = fork(childScript, [], {
        env: {
          ...process.env,
          REDIS_URL: server.url,
          KEY_PREFIX: keyPrefix,
          EFFECTS_FILE: effectsFile,
          PORT: String(port),
          SECRET,
          LEASE_SECONDS: String(LEASE_SECONDS),
        },
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      child = started;
      started.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString('utf8').split('\n')));
      ready = new Promise<void>((done) => {
        started.once('message', () => done());
        started.once('exit', () => done());
      });
      started.once('exit', () => {
        if (!supervising) return;
        // A process that died is a finding; a platform would restart it, so the run goes on to count the rest.
        exits++;
        spawnChild();
      });
    };
    spawnChild();
    await ready;

    const ids: string[] = [];
    /** When each event's delivery was answered 2xx (the sender's side of "received"). */
    const ackedAt = new Map<string, number>();
    const acknowledged: Promise<void>[] = [];
    let hangs = 0;
    let answered503 = 0;
    let otherAnswers = 0;
    const deliver = (first?: (status: number) => void) => {
      const id = `evt_${fault}_${ids.length}`;
      ids.push(id);
      const event = buildEvent('sale.completed', { id });
      const sending = (async () => {
        for (let attempt = 1; ; attempt++) {
          await ready;
          const delivery = await signedDelivery(event, { secret: SECRET, attempt });
          let status = 0;
          try {
            const response = await fetch(`http://127.0.0.1:${port}/`, {
              method: 'POST',
              headers: delivery.headers,
              body: delivery.body,
              signal: AbortSignal.timeout(SENDER_TIMEOUT_MS),
            });
            status = response.status;
            await response.arrayBuffer();
          } catch (error) {
            if ((error as Error).name === 'TimeoutError') hangs++;
          }
          if (attempt === 1) first?.(status);
          if (status >= 200 && status < 300) {
            ackedAt.set(id, Date.now());
            return;
          }
          if (status === 503) answered503++;
          else if (status !== 0) otherAnswers++;
          await sleep(200);
        }
      })();
      acknowledged.push(sending);
    };
    const probe = () => new Promise<number>((done) => deliver(done));

    let producing = true;
    const producer = (async () => {
      while (producing) {
        deliver();
        await sleep(100);
      }
    })();
    await sleep(1000);
    await during(probe);
    await sleep(1000);
    producing = false;
    await producer;
    await Promise.all(acknowledged);

    const appliedCounts = () => {
      const counts = new Map<string, number>();
      const lines = existsSync(effectsFile) ? readFileSync(effectsFile, 'utf8').split('\n') : [];
      for (const line of lines) if (line !== '') counts.set(line, (counts.get(line) ?? 0) + 1);
      return counts;
    };
    let applied = appliedCounts();
    let open = -1;
    let dead = 0;
    const deadline = Date.now() + 30_000;
    for (;;) {
      applied = appliedCounts();
      open = Number(await command(['ZCARD', `${keyPrefix}all`]));
      dead = Number(await command(['ZCARD', `${keyPrefix}dead`]));
      if ((applied.size >= ids.length && open === 0) || Date.now() > deadline) break;
      await sleep(200);
    }
    supervising = false;
    const running = child as ChildProcess | null;
    if (running && running.exitCode === null) {
      const gone = new Promise((done) => running.once('exit', done));
      running.kill('SIGKILL');
      await gone;
    }
    const errors = new Map<string, number>();
    for (const line of stderr) {
      const match = /^error (\w+) (\w+):/.exec(line);
      if (match) errors.set(`${match[1]} ${match[2]}`, (errors.get(`${match[1]} ${match[2]}`) ?? 0) + 1);
    }
    const row: Figures = {
      fault,
      events: ids.length,
      lost: ids.filter((id) => !applied.has(id)).length,
      twice: [...applied.values()].filter((n) => n > 1).length,
      dead,
      exits,
      hangs,
      answered503,
      otherAnswers,
      errors: JSON.stringify(Object.fromEntries(errors)),
    };
    figures.push(row);
    // Lines that are not an error a listener reported: a crash's stack, an unhandled rejection.
    const unexpected = stderr.filter(
      (line) => line.trim() !== '' && !/^error (receiver|worker|client) \w+:/.test(line),
    );
    return { ...row, unexpected, applied, ackedAt };
  }

  const expectSurvived = (run: Figures & { unexpected: string[] }) => {
    expectLived(run);
    expect(run.lost).toBe(0);
  };

  /** The process lived and answered, and was told typed errors only; says nothing of what was lost. */
  const expectLived = (run: Figures & { unexpected: string[] }) => {
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
    const run = await faultRun('restart', async (probe) => {
      await server.stop();
      probes.push(await probe());
      await server.start();
    });
    expect(probes).toEqual([503]);
    expectSurvived(run);
  });

  it('stopped for 10 s: 503 all along, then everything processed', async () => {
    const probes: number[] = [];
    const run = await faultRun('stopped', async (probe) => {
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
    const run = await faultRun('sigstop', async (probe) => {
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
    const run = await faultRun('clientkill', async () => {
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
      const run = await faultRun('restart_no_aof', async () => {
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
