// `shop-mgmt listen --inbox postgres://...` (the built bin, its own process) against a `shop-mgmt sandbox`
// process, while its PostgreSQL (a server of this file's own) is stopped for 10 s and then has its backends
// terminated every 0.7 s, with the shop making an event every 200 ms all along. `listen` answers no HTTP (it
// pulls the feed): while the database is away each poll's insert fails with a DatabaseUnavailableError,
// printed with the poll's other errors, the checkpoint stays before the event, and the next poll (every
// second) tries again; that is its "503, the service retries". Asserted: the process lives (it exited within
// 0.5 s of a Postgres restart before the pool had an 'error' listener), prints only that typed error, exits
// 0 on SIGTERM, and every event the shop made is in the inbox exactly once (none skipped, none added twice).
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPostgresServer, type OwnPostgres, startOwnPostgres } from '../setup/postgres-server.js';
import { cliSuite, startSandbox } from './helpers.js';

const { cli, receiver, scratch } = cliSuite('listen-postgres-faults');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const STOPPED_MS = 10_000;

/** One statement on a connection of its own (the terminating phase ends connections between checks). */
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

describe.skipIf(!hasPostgresServer())('listen --inbox postgres:// while the database goes away', () => {
  let database: OwnPostgres;
  beforeAll(async () => {
    database = await startOwnPostgres();
  }, 60_000);
  afterAll(async () => {
    database?.resume();
    await database?.stop();
  });

  it(`stopped ${STOPPED_MS / 1000} s, then backends terminated: lives, says why, every event in the inbox once`, async () => {
    const hook = await receiver();
    // The sandbox's endpoint subscribes to every type, so the feed carries them all.
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const url = database.createDatabase('listen_faults');
    const checkpoint = join(scratch(), 'listen-faults.json');
    const listening = cli.start(
      ['listen', '--inbox', url, '--checkpoint', checkpoint, '--interval', '1', '--json'],
      env,
    );
    await listening.until(() => listening.records().find((record) => record.event === 'listening'), 30_000);

    const ids: string[] = [];
    const refused: string[] = [];
    let producing = true;
    // Kinds the sandbox makes without its API (which would spend the rate limit `listen`'s key polls under)
    // and without running its stock dry, in turn; an event it could not make (409) the inbox need not have.
    const kinds = ['product.created', 'customer.updated', 'sale.refunded', 'invoice.created'];
    const producer = (async () => {
      for (let n = 0; producing; n++) {
        const response = await fetch(`${sandbox.url}/_sandbox/trigger`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${sandbox.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ type: kinds[n % kinds.length] }),
        });
        const body = (await response.json()) as { events?: { id: string }[]; error?: string };
        if (response.status === 200) ids.push(...(body.events ?? []).map((event) => event.id));
        else refused.push(`${response.status} ${body.error}`);
        await sleep(200);
      }
    })();
    const lived = () => expect(listening.child.exitCode, listening.stderr.join('\n')).toBe(null);

    await sleep(1000);
    await database.halt();
    const errorsBefore = listening.stderr.length;
    await sleep(STOPPED_MS);
    lived();
    // While it was away, the polls said why (and kept the process).
    const whileDown = listening.stderr.slice(errorsBefore).filter((line) => line.startsWith('{"error"'));
    expect(whileDown.length).toBeGreaterThanOrEqual(3);
    await database.start();

    let terminated = 0;
    const database_ = new URL(url).pathname.slice(1);
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      const rows = await query<{ n: string }>(
        database.url,
        `SELECT count(*) AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid()) t`,
        [database_],
      );
      terminated += Number(rows[0]?.n ?? 0);
      await sleep(700);
    }
    await sleep(1000);
    producing = false;
    await producer;
    lived();

    // Every event the shop made reaches the inbox (the feed is polled every second).
    let stored: { event_id: string; n: string }[] = [];
    const deadline = Date.now() + 45_000;
    for (;;) {
      stored = await query<{ event_id: string; n: string }>(
        url,
        'SELECT event_id, count(*) AS n FROM shop_inbox GROUP BY event_id',
      ).catch((error: { code?: string }) => {
        // The table is made with the first insert that reaches the database.
        if (error.code === '42P01') return [];
        throw error;
      });
      const have = new Set(stored.map((row) => row.event_id));
      if (ids.every((id) => have.has(id)) || Date.now() > deadline) break;
      await sleep(500);
    }
    lived();
    const added = new Map<string, number>();
    for (const record of listening.records()) {
      if (record.event === 'inbox' && record.added === 'added') {
        added.set(String(record.eventId), (added.get(String(record.eventId)) ?? 0) + 1);
      }
    }
    const errors = listening.stderr.filter((line) => line.startsWith('{"error"'));
    console.log(
      `[db faults, listen --inbox postgres] events ${ids.length}, in the inbox ${stored.length}, lost ${ids.filter((id) => !stored.some((row) => row.event_id === id)).length}, added twice ${[...added.values()].filter((n) => n > 1).length}, backends terminated ${terminated}, errors printed ${errors.length}, exits ${listening.child.exitCode === null ? 0 : 1}`,
    );
    expect(ids.length).toBeGreaterThanOrEqual(40);
    expect(refused.length, refused.join('\n')).toBeLessThan(ids.length / 4);
    expect(terminated).toBeGreaterThanOrEqual(2);
    expect(ids.filter((id) => !stored.some((row) => row.event_id === id))).toEqual([]);
    expect(stored.filter((row) => Number(row.n) !== 1)).toEqual([]);
    // Added at most once (an insert whose answer was lost may be counted as a duplicate when repeated).
    expect([...added.values()].filter((n) => n !== 1)).toEqual([]);
    // Only the typed error, and nothing a crash or an unhandled 'error' event would print.
    expect(errors.filter((line) => !line.includes('DatabaseUnavailableError'))).toEqual([]);
    expect(listening.stderr.filter((line) => /Unhandled|at .*\(.*:\d+:\d+\)|^\s+at /.test(line))).toEqual([]);
    expect(await listening.stop('SIGTERM')).toBe(0);
  }, 180_000);
});
