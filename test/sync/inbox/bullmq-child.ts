// A forwarder process for the BullMQ kill test (bullmq.test.ts): the inbox on a SQLite file, forwarding to a
// BullMQ queue on the test run's redis-server. It tells its parent (IPC) after each job added, so the parent
// can kill it with SIGKILL right after an add and before the inbox's done mark. FINISH=1: runs until the
// inbox has nothing pending or leased, then exits 0. Bundled by the test with esbuild; set up by environment.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { forwardToBullMQ } from '../../../src/sync/inbox/bullmq.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';

const env = process.env as Record<string, string>;
const connection = new Redis(env.REDIS_URL!, { maxRetriesPerRequest: null });
const queue = new Queue(env.QUEUE!, { connection });
const inbox = new Inbox(await SqliteInboxStore.open(env.INBOX_DB!), { maxAttempts: 100, retryBaseMs: 10 });
const told = {
  add: async (...args: Parameters<typeof queue.add>) => {
    const job = await queue.add(...args);
    process.send?.('added');
    return job;
  },
};
const worker = forwardToBullMQ(inbox, told, {
  concurrency: 8,
  pollMs: 20,
  leaseSeconds: 1,
  onError: () => {},
});
process.send?.('ready');
if (env.FINISH === '1') {
  for (;;) {
    await worker.idle();
    const left = [...(await inbox.list('pending', 1)), ...(await inbox.list('processing', 1))];
    if (left.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await worker.stop();
  await queue.close();
  await connection.quit();
  await inbox.store.close();
  process.exit(0);
}
