// A partner's inbox worker in its own process, for poison.test.ts: it processes the inbox the parent filled,
// and the handler kills its own process (SIGKILL, as an OOM or a native crash would) on the poison event.
// Bundled by poison.test.ts with esbuild; configured by environment variables.
import { createClient } from 'redis';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { PostgresInboxStore } from '../../../src/sync/inbox/postgres.js';
import { RedisInboxStore } from '../../../src/sync/inbox/redis.js';
import { SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';
import type { InboxStore } from '../../../src/sync/inbox/types.js';

const env = process.env as Record<string, string>;

async function openStore(): Promise<InboxStore> {
  if (env.STORE === 'sqlite') return SqliteInboxStore.open(env.DB!);
  if (env.STORE === 'postgres') return PostgresInboxStore.connect(env.PG_URL!, { table: env.TABLE! });
  const client = await createClient({ url: env.REDIS_URL! }).connect();
  return new RedisInboxStore(client, { keyPrefix: env.PREFIX! });
}

async function main(): Promise<void> {
  const inbox = new Inbox(await openStore(), { maxAttempts: Number(env.MAX_ATTEMPTS), retryBaseMs: 10 });
  await inbox.ready();
  inbox.work(
    async (event) => {
      if (event.id === env.POISON) process.kill(process.pid, 'SIGKILL');
      // The others are still in flight when the poison event kills the process.
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
    { concurrency: Number(env.CONCURRENCY), leaseSeconds: 1, pollMs: 20, onError: () => undefined },
  );
}

void main();
