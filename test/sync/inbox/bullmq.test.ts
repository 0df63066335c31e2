// shop-mgmt/inbox/bullmq against the test run's redis-server: 520 events in a SQLite inbox, forwarded by a
// child process killed with SIGKILL right after random adds (before the inbox's done mark) and restarted,
// then one left to finish: every event is exactly one job, none lost, and more adds were made than events
// (so kills did land between an add and its done mark).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { forwardToBullMQ } from '../../../src/sync/inbox/bullmq.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { MemoryInboxStore } from '../../../src/sync/inbox/memory.js';
import { SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';
import { bundleChild } from '../../support/child-bundle.js';
import { anyEvent } from './events.js';

const redisUrl = inject('redisUrl');
const EVENTS = 520;
const KILLS = 8;

let dir: string;
let bundle: Awaited<ReturnType<typeof bundleChild>> | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'inbox-bullmq-'));
  bundle = await bundleChild('test/sync/inbox/bullmq-child.ts', ['better-sqlite3', 'bullmq', 'ioredis']);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  bundle?.cleanup();
});

describe.skipIf(!redisUrl)('the BullMQ forwarder over a real redis-server', () => {
  it('killed with SIGKILL between adds and done marks over 520 events: every event exactly one job, 0 lost', async () => {
    const path = join(dir, 'inbox.db');
    const queueName = `shop-events-${process.pid}-${Date.now()}`;
    const seed = new Inbox(await SqliteInboxStore.open(path));
    const ids: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const event = anyEvent();
      ids.push(event.id);
      await seed.add(event, 'webhook');
    }
    await seed.store.close();

    let adds = 0;
    const run = (finish: boolean, killAfter: number) =>
      new Promise<{ killed: boolean; code: number | null }>((done, fail) => {
        let seen = 0;
        let killed = false;
        const child: ChildProcess = fork(bundle!.script, [], {
          env: {
            ...process.env,
            INBOX_DB: path,
            REDIS_URL: redisUrl!,
            QUEUE: queueName,
            FINISH: finish ? '1' : '0',
          },
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        });
        child.on('message', (message) => {
          if (message !== 'added') return;
          adds++;
          seen++;
          if (!finish && !killed && seen >= killAfter) {
            killed = true;
            child.kill('SIGKILL');
          }
        });
        child.once('error', fail);
        child.once('exit', (code) => done({ killed, code }));
      });

    let kills = 0;
    for (let i = 0; i < KILLS; i++) {
      const outcome = await run(false, 1 + Math.floor(Math.random() * 60));
      if (outcome.killed) kills++;
    }
    const last = await run(true, 0);
    expect(last).toEqual({ killed: false, code: 0 });
    expect(kills).toBe(KILLS);

    const connection = new Redis(redisUrl!, { maxRetriesPerRequest: null });
    const queue = new Queue(queueName, { connection });
    try {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized'], 0, -1);
      const jobIds = jobs.map((job) => job.id!).sort();
      expect(jobIds).toHaveLength(EVENTS);
      expect(jobIds).toEqual([...ids].sort());
      expect(jobs.every((job) => (job.data as { id: string }).id === job.id)).toBe(true);
      // Some events were added twice (killed after the add, before the done mark): still one job each.
      expect(adds).toBeGreaterThan(EVENTS);
      const check = new Inbox(await SqliteInboxStore.open(path));
      expect(await check.list('done', EVENTS + 10)).toHaveLength(EVENTS);
      expect(await check.deadLetters()).toHaveLength(0);
      await check.store.close();
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await connection.quit();
    }
  }, 300_000);

  it('names the job after the event type unless told otherwise, and refuses an id BullMQ would', async () => {
    const added: [string, unknown, Record<string, unknown>][] = [];
    const queue = {
      add: async (name: string, data: unknown, options: Record<string, unknown>) => {
        added.push([name, data, options]);
      },
    };
    const inbox = new Inbox(new MemoryInboxStore(), { maxAttempts: 1 });
    const event = anyEvent();
    await inbox.add(event);
    const bad = { ...anyEvent(), id: 'evt:1' };
    await inbox.add(bad);
    const errors: unknown[] = [];
    const worker = forwardToBullMQ(inbox, queue, {
      jobOptions: { attempts: 3, jobId: 'ignored' },
      onError: (error) => errors.push(error),
      pollMs: 5,
    });
    await worker.idle();
    await worker.stop();
    expect(added).toEqual([[event.type, event, { attempts: 3, jobId: event.id }]]);
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toContain("has a ':'");
    expect(await inbox.deadLetters()).toHaveLength(1);
    expect(() => forwardToBullMQ(inbox, {} as never)).toThrow('needs a BullMQ Queue');
  });
});
