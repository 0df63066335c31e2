// The Postgres inbox under database faults, from the outside: a receiver and worker in their own process
// (postgres-child.ts) on a PostgreSQL server of this file's own (so restarting it disturbs no other test
// file), while this file sends signed deliveries the way the service does (retrying every non-2xx) and the
// database is restarted, stopped for 10 s, SIGSTOPped past the worker's 2 s lease, has its backends terminated
// every 0.7 s, and ends idle sessions after 300 ms (`idle_session_timeout`). Each time: the process lives (no
// exit), a delivery made while the database is away is answered 503, every error the process reports is a
// typed DatabaseUnavailableError (or the receiver's StoreTimeoutError), and once the database is back every
// event is processed: 0 lost, 0 applied twice.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvent, signedDelivery } from '../../../src/testing/factories/index.js';
import { hasPostgresServer, type OwnPostgres, startOwnPostgres } from '../../setup/postgres-server.js';
import { freePort } from '../../setup/redis-server.js';

const root = resolve(import.meta.dirname, '../../..');
const SECRET = 'whsec_faults_test_secret';
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

/** One statement on a connection of its own (idle sessions may be ended by the server between checks). */
async function query<Row>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe.skipIf(!hasPostgresServer())(
  'the Postgres inbox in its own process while the database fails',
  () => {
    let server: OwnPostgres;
    let bundleDir: string;
    let childScript: string;
    const figures: Figures[] = [];

    beforeAll(async () => {
      const cache = join(root, 'node_modules/.cache');
      mkdirSync(cache, { recursive: true });
      bundleDir = mkdtempSync(join(cache, 'db-faults-'));
      childScript = join(bundleDir, 'child.mjs');
      [server] = await Promise.all([
        startOwnPostgres(),
        build({
          entryPoints: [join(root, 'test/sync/faults/postgres-child.ts')],
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          outfile: childScript,
          external: ['pg'],
          banner: {
            js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
          },
          logLevel: 'silent',
        }),
      ]);
    });

    afterAll(async () => {
      console.log(
        `[db faults, postgres] runs: ${figures.length}\n${figures
          .map((row) => JSON.stringify(row))
          .join(
            '\n',
          )}\n[db faults, postgres] total: lost ${sum('lost')}, applied twice ${sum('twice')}, exits ${sum('exits')}, hangs ${sum('hangs')}, 503s ${sum('answered503')}`,
      );
      server?.resume();
      await server?.stop();
      rmSync(bundleDir, { recursive: true, force: true });
    });

    const sum = (key: 'lost' | 'twice' | 'exits' | 'hangs' | 'answered503') =>
      figures.reduce((total, row) => total + row[key], 0);

    /**
     * Starts the child on a database of its own, sends an event every 100 ms from before `fault` until a
     * second after it, each retried until a 2xx, then waits until every event is processed (or 30 s pass).
     * `fault` gets `probe`: one delivery made now, with its first answer's status.
     */
    async function faultRun(
      fault: string,
      during: (probe: () => Promise<number>, databaseUrl: string) => Promise<void>,
      prepare?: (databaseUrl: string) => Promise<void>,
    ): Promise<Figures & { unexpected: string[] }> {
      const name = `fault_${fault}`;
      const url = server.createDatabase(name);
      await query(url, 'CREATE TABLE effects (event_id TEXT NOT NULL)');
      await prepare?.(url);
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
            PG_URL: url,
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
            if (status >= 200 && status < 300) return;
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
      await during(probe, url);
      await sleep(1000);
      producing = false;
      await producer;
      await Promise.all(acknowledged);

      type Count = { event_id: string; n: string };
      let effects: Count[] = [];
      let statuses: { status: string; n: string }[] = [];
      const deadline = Date.now() + 30_000;
      for (;;) {
        effects = await query<Count>(url, 'SELECT event_id, count(*) AS n FROM effects GROUP BY event_id');
        statuses = await query(url, 'SELECT status, count(*) AS n FROM shop_inbox GROUP BY status');
        const open = statuses
          .filter((row) => row.status === 'pending')
          .reduce((n, row) => n + Number(row.n), 0);
        if ((effects.length >= ids.length && open === 0) || Date.now() > deadline) break;
        await sleep(200);
      }
      supervising = false;
      const running = child as ChildProcess | null;
      if (running && running.exitCode === null) {
        const gone = new Promise((done) => running.once('exit', done));
        running.kill('SIGKILL');
        await gone;
      }
      const applied = new Map(effects.map((row) => [row.event_id, Number(row.n)]));
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
        dead: Number(statuses.find((status) => status.status === 'dead')?.n ?? 0),
        exits,
        hangs,
        answered503,
        otherAnswers,
        errors: JSON.stringify(Object.fromEntries(errors)),
      };
      figures.push(row);
      const unexpected = stderr.filter(
        (line) =>
          line.trim() !== '' &&
          !/^error (receiver|worker) (DatabaseUnavailableError|StoreTimeoutError):/.test(line),
      );
      return { ...row, unexpected };
    }

    const expectSurvived = (run: Figures & { unexpected: string[] }) => {
      expect(run.events).toBeGreaterThanOrEqual(20);
      // Every error the receiver and the worker reported is typed (the database was away, try again), and
      // nothing else came on stderr (a crash's stack would).
      expect(run.unexpected).toEqual([]);
      expect(run.exits).toBe(0);
      expect(run.hangs).toBe(0);
      expect(run.lost).toBe(0);
      expect(run.twice).toBe(0);
      expect(run.dead).toBe(0);
      expect(run.otherAnswers).toBe(0);
    };

    it('restarted (a fast shutdown and a start): 503 while it is down, then everything processed', async () => {
      const probes: number[] = [];
      const run = await faultRun('restart', async (probe) => {
        await server.halt();
        probes.push(await probe());
        await server.start();
      });
      expect(probes).toEqual([503]);
      expectSurvived(run);
    });

    it('stopped for 10 s: 503 all along, then everything processed', async () => {
      const probes: number[] = [];
      const run = await faultRun('stopped', async (probe) => {
        await server.halt();
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

    it(`SIGSTOPped for ${LEASE_SECONDS + 2} s, past the worker's ${LEASE_SECONDS} s lease: 503 while stalled, then everything processed once`, async () => {
      const probes: number[] = [];
      const run = await faultRun('sigstop', async (probe) => {
        server.pause();
        // Again: a backend the postmaster forked between the first pass's listing and its own SIGSTOP would
        // run on and take the probe (seen once: the probe answered 200 while "stalled").
        server.pause();
        try {
          probes.push(await probe());
          await sleep((LEASE_SECONDS + 2) * 1000);
        } finally {
          server.resume();
        }
      });
      expect(probes).toEqual([503]);
      expectSurvived(run);
    });

    it('its backends terminated every 0.7 s for 5 s: the process lives and everything is processed once', async () => {
      let terminated = 0;
      const run = await faultRun('terminate', async (_probe, url) => {
        const database = new URL(url).pathname.slice(1);
        const until = Date.now() + 5000;
        while (Date.now() < until) {
          const rows = await query<{ n: string }>(
            server.url,
            `SELECT count(*) AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = $1 AND pid <> pg_backend_pid()) t`,
            [database],
          );
          terminated += Number(rows[0]?.n ?? 0);
          await sleep(700);
        }
      });
      console.log(`[db faults, postgres] backends terminated: ${terminated}`);
      expect(terminated).toBeGreaterThanOrEqual(5);
      expectSurvived(run);
    });

    it('idle_session_timeout at 300 ms: idle connections ended all along, the process lives', async () => {
      const run = await faultRun(
        'idle',
        async () => {
          await sleep(5000);
        },
        (url) =>
          query(url, `ALTER DATABASE ${new URL(url).pathname.slice(1)} SET idle_session_timeout = 300`).then(
            () => undefined,
          ),
      );
      expectSurvived(run);
    });
  },
);
