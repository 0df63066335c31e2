// Every backend of the two PostgreSQL pools a process holds (the sync engine's and the inbox's) terminated,
// first while the pools sit idle, then while each has a transaction open: `pg` emits 'error' on each such
// connection, and a pool or a checked-out client without a listener ends the process. The pools live in a
// child process (idle-backends-child.ts) so an exit shows: asserted, the child lives, the open transactions
// fail with a DatabaseUnavailableError, and both pools answer again once they connect afresh.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPostgresServer, type OwnPostgres, startOwnPostgres } from '../../setup/postgres-server.js';

const root = resolve(import.meta.dirname, '../../..');

interface Reply {
  step: string;
  engine: string;
  inbox: string;
}

/** Terminates every backend of `database` but this one; gives how many. */
async function terminateAll(serverUrl: string, database: string): Promise<number> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT count(*) AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = $1 AND pid <> pg_backend_pid()) t`,
      [database],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe.skipIf(!hasPostgresServer())('every backend of the engine and inbox pools terminated', () => {
  let server: OwnPostgres;
  let bundleDir: string;
  let childScript: string;

  beforeAll(async () => {
    const cache = join(root, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    bundleDir = mkdtempSync(join(cache, 'idle-backends-'));
    childScript = join(bundleDir, 'child.mjs');
    [server] = await Promise.all([
      startOwnPostgres(),
      build({
        entryPoints: [join(root, 'test/sync/faults/idle-backends-child.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: childScript,
        external: ['pg', 'better-sqlite3'],
        banner: {
          js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
        },
        logLevel: 'silent',
      }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(bundleDir, { recursive: true, force: true });
  });

  it('idle and mid-transaction: the process lives, the transactions fail typed, both pools answer after', async () => {
    const url = server.createDatabase('idle_backends');
    const database = new URL(url).pathname.slice(1);
    const stderr: string[] = [];
    const child: ChildProcess = fork(childScript, [], {
      env: { ...process.env, PG_URL: url },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    let exit: string | null = null;
    const exited = new Promise<void>((done) =>
      child.once('exit', (code, signal) => {
        exit = `exit ${code} ${signal}`;
        done();
      }),
    );
    const replies: Reply[] = [];
    child.on('message', (reply: Reply) => replies.push(reply));
    const next = async (step: string | null, expected: string): Promise<Reply> => {
      if (step) child.send(step);
      const deadline = Date.now() + 20_000;
      for (;;) {
        const found = replies.find((reply) => reply.step === expected);
        if (found) return found;
        if (exit !== null) throw new Error(`the child ended (${exit}): ${stderr.join('')}`);
        if (Date.now() > deadline) throw new Error(`no '${expected}' from the child: ${stderr.join('')}`);
        await new Promise((wake) => setTimeout(wake, 20));
      }
    };
    try {
      await next(null, 'started');
      await next('idle', 'idle');
      // Idle: 4 connections in each pool (and the inbox's setup one), none checked out.
      const idle = await terminateAll(server.url, database);
      expect(idle).toBeGreaterThanOrEqual(8);
      // Long enough for every 'error' and 'end' event to arrive; the next step is answered only if alive.
      await new Promise((wake) => setTimeout(wake, 500));
      expect(await next('check', 'check')).toMatchObject({ engine: 'ok', inbox: 'ok' });

      await next('hold', 'hold');
      const held = await terminateAll(server.url, database);
      expect(held).toBeGreaterThanOrEqual(2);
      expect(await next('held', 'held')).toMatchObject({
        engine: 'DatabaseUnavailableError',
        inbox: 'DatabaseUnavailableError',
      });
      replies.splice(
        replies.findIndex((reply) => reply.step === 'check'),
        1,
      );
      expect(await next('check', 'check')).toMatchObject({ engine: 'ok', inbox: 'ok' });
      console.log(
        `[db faults, postgres pools] backends terminated: ${idle} idle, ${held} in a transaction; exits 0`,
      );
      expect(exit).toBe(null);
      expect(stderr.join('')).toBe('');
    } finally {
      if (exit === null) child.kill('SIGKILL');
      await exited;
    }
  }, 90_000);
});
