// A poison event: its handler kills the worker's process. The worker runs in a child process restarted at
// once after each death (as a platform would), at concurrency 1, 4 and 8, on SQLite, Postgres and Redis.
// Only the poison event goes to the dead letters; every event leased beside it when it killed the process
// is processed: a death counts against an event only when it ran alone (a suspect, after such a death).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import type { InboxStore } from '../../../src/sync/inbox/types.js';
import { bundleChild } from '../../support/child-bundle.js';
import { anyEvent } from './events.js';

const MAX_ATTEMPTS = 3;
let dir: string;
let bundle: Awaited<ReturnType<typeof bundleChild>> | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'inbox-poison-'));
  bundle = await bundleChild('test/sync/inbox/poison-child.ts', ['better-sqlite3', 'redis', 'pg']);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  bundle?.cleanup();
});

interface StoreCase {
  readonly name: 'sqlite' | 'postgres' | 'redis';
  readonly available: boolean;
  /** The parent's store, and the environment the child opens the same store with. */
  readonly open: (
    run: string,
  ) => Promise<{ store: InboxStore; env: Record<string, string>; close: () => Promise<void> }>;
}

const stores: StoreCase[] = [
  {
    name: 'sqlite',
    available: true,
    open: async (run) => {
      const { SqliteInboxStore } = await import('../../../src/sync/inbox/sqlite.js');
      const db = join(dir, `${run}.db`);
      const store = await SqliteInboxStore.open(db);
      return { store, env: { STORE: 'sqlite', DB: db }, close: () => store.close() };
    },
  },
  {
    name: 'postgres',
    available: inject('postgresUrl') !== null,
    open: async (run) => {
      const { PostgresInboxStore } = await import('../../../src/sync/inbox/postgres.js');
      const table = `poison_${process.pid}_${run}`;
      const store = await PostgresInboxStore.connect(inject('postgresUrl')!, { table });
      return {
        store,
        env: { STORE: 'postgres', PG_URL: inject('postgresUrl')!, TABLE: table },
        close: () => store.close(),
      };
    },
  },
  {
    name: 'redis',
    available: inject('redisUrl') !== null,
    open: async (run) => {
      const { createClient } = await import('redis');
      const { RedisInboxStore } = await import('../../../src/sync/inbox/redis.js');
      const client = await createClient({ url: inject('redisUrl')! }).connect();
      const prefix = `{poison-${process.pid}-${run}}:`;
      return {
        store: new RedisInboxStore(client, { keyPrefix: prefix }),
        env: { STORE: 'redis', REDIS_URL: inject('redisUrl')!, PREFIX: prefix },
        close: async () => {
          const keys = await client.keys(`${prefix}*`);
          if (keys.length > 0) await client.del(keys);
          await client.quit();
        },
      };
    },
  },
];

describe.each(stores)('a poison event over $name', ({ name, available, open }) => {
  it.skipIf(!available).each([1, 4, 8])(
    'at concurrency %i, dead-letters the poison event only; the events leased with it are processed',
    async (concurrency) => {
      const { store, env, close } = await open(`c${concurrency}`);
      try {
        const inbox = new Inbox(store);
        // The poison event first: it is in the first batch of every worker start.
        const events = Array.from({ length: 12 }, () => anyEvent());
        const poison = events[0]!;
        for (const e of events) await inbox.add(e, 'webhook');
        const settled = async () => {
          const entries = await Promise.all(events.map((e) => inbox.get(e.id)));
          return entries.every((entry) => entry?.status === 'done' || entry?.status === 'dead');
        };
        let starts = 0;
        let deaths = 0;
        while (!(await settled())) {
          expect(starts).toBeLessThan(20);
          starts++;
          const child = fork(bundle!.script, [], {
            env: {
              ...process.env,
              ...env,
              POISON: poison.id,
              CONCURRENCY: String(concurrency),
              MAX_ATTEMPTS: String(MAX_ATTEMPTS),
            },
            stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
          });
          const exited = once(child, 'exit');
          let gone = false;
          void exited.then(() => {
            gone = true;
          });
          while (!gone && !(await settled())) await new Promise((r) => setTimeout(r, 100));
          if (gone) {
            const [, signal] = await exited;
            expect(signal).toBe('SIGKILL');
            deaths++;
          } else {
            child.kill('SIGKILL');
            await exited;
          }
        }
        const entries = await Promise.all(events.map((e) => inbox.get(e.id)));
        expect(entries[0]).toMatchObject({ status: 'dead', attempts: MAX_ATTEMPTS + 1 });
        expect(entries[0]?.lastError).toMatch(/No run finished in 3 attempts/);
        expect(entries.slice(1).map((entry) => entry?.status)).toEqual(Array(11).fill('done'));
        // An event leased beside the poison event had one death counted against it at most, then ran alone.
        const attempts = entries.slice(1).map((entry) => entry?.attempts ?? 0);
        expect(Math.max(...attempts)).toBeLessThanOrEqual(2);
        // The poison event killed its process once per attempt; the death count does not depend on the batch.
        expect(deaths).toBe(MAX_ATTEMPTS);
        console.info(`[poison ${name} c${concurrency}] ${starts} starts, ${deaths} deaths, 1 dead, 11 done`);
      } finally {
        await close();
      }
    },
    120_000,
  );
});
