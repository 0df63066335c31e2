// The Postgres inbox under database faults, from the outside: a receiver and worker in their own process
// (postgres-child.ts) on a PostgreSQL server of this file's own (so restarting it disturbs no other test
// file), while this file sends signed deliveries the way the service does (retrying every non-2xx) and the
// database is restarted, stopped for 10 s, SIGSTOPped past the worker's 2 s lease, has its backends terminated
// every 0.7 s, and ends idle sessions after 300 ms (`idle_session_timeout`). Each time: the process lives (no
// exit), a delivery made while the database is away is answered 503, every error the process reports is a
// typed DatabaseUnavailableError (or the receiver's StoreTimeoutError), and once the database is back every
// event is processed: 0 lost, 0 applied twice.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPostgresServer, type OwnPostgres, startOwnPostgres } from '../../setup/postgres-server.js';
import { bundleChild } from '../../support/child-bundle.js';
import { type FaultFigures, type FaultRun, faultRun, faultSummary } from './fault-run.js';

const SECRET = 'whsec_faults_test_secret';
const LEASE_SECONDS = 2;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

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
    let child: Awaited<ReturnType<typeof bundleChild>> | undefined;
    const figures: FaultFigures[] = [];

    beforeAll(async () => {
      [server, child] = await Promise.all([
        startOwnPostgres(),
        bundleChild('test/sync/faults/postgres-child.ts', ['pg']),
      ]);
    });

    afterAll(async () => {
      console.log(faultSummary('postgres', figures));
      server?.resume();
      await server?.stop();
      child?.cleanup();
    });

    /**
     * The child on a database of its own, through {@link faultRun}. `during` also gets the database's URL;
     * `prepare` runs on the database before the child starts.
     */
    async function runFault(
      fault: string,
      during: (probe: () => Promise<number>, databaseUrl: string) => Promise<void>,
      prepare?: (databaseUrl: string) => Promise<void>,
    ): Promise<FaultRun> {
      const url = server.createDatabase(`fault_${fault}`);
      await query(url, 'CREATE TABLE effects (event_id TEXT NOT NULL)');
      await prepare?.(url);
      const result = await faultRun({
        fault,
        childScript: child!.script,
        secret: SECRET,
        env: { PG_URL: url, LEASE_SECONDS: String(LEASE_SECONDS) },
        during: (probe) => during(probe, url),
        reported: /^error (receiver|worker) (DatabaseUnavailableError|StoreTimeoutError):/,
        counts: async () => {
          const effects = await query<{ event_id: string; n: string }>(
            url,
            'SELECT event_id, count(*) AS n FROM effects GROUP BY event_id',
          );
          const statuses = await query<{ status: string; n: string }>(
            url,
            'SELECT status, count(*) AS n FROM shop_inbox GROUP BY status',
          );
          const count = (status: string) =>
            statuses.filter((row) => row.status === status).reduce((n, row) => n + Number(row.n), 0);
          return {
            applied: new Map(effects.map((row) => [row.event_id, Number(row.n)])),
            open: count('pending'),
            dead: count('dead'),
          };
        },
      });
      figures.push(result);
      return result;
    }

    const expectSurvived = (run: FaultRun) => {
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
      const run = await runFault('restart', async (probe) => {
        await server.halt();
        probes.push(await probe());
        await server.start();
      });
      expect(probes).toEqual([503]);
      expectSurvived(run);
    });

    it('stopped for 10 s: 503 all along, then everything processed', async () => {
      const probes: number[] = [];
      const run = await runFault('stopped', async (probe) => {
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
      const run = await runFault('sigstop', async (probe) => {
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
      const run = await runFault('terminate', async (_probe, url) => {
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
      const run = await runFault(
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
