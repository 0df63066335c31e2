// A partner's receiver and worker on the Redis inbox, in its own process, as redis-faults.test.ts runs it
// while Redis restarts, stops, stalls and has its connections killed: the webhook handler writes each delivery
// into the inbox, the worker applies it by appending the event's id to a file (an effect outside Redis, so
// an event applied twice shows as two lines). The node-redis client is wired as the production guide says: an
// `'error'` listener (without one, node-redis's first connection error ends the process) and a reconnect
// strategy. Every error the receiver, the worker or the client reports goes to stderr as
// `error <where> <name>: <message>`. Bundled by the test with esbuild; configured by environment variables.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { RedisInboxStore } from '../../../src/sync/inbox/redis.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';

const env = process.env as Record<string, string>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const report = (where: string) => (error: unknown) => {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  process.stderr.write(`error ${where} ${name}: ${message}\n`);
};

async function main(): Promise<void> {
  const client = createClient({
    url: env.REDIS_URL!,
    socket: { reconnectStrategy: () => 100, connectTimeout: 1000 },
  });
  client.on('error', report('client'));
  await client.connect();
  const store = new RedisInboxStore(client, { keyPrefix: env.KEY_PREFIX! });
  const inbox = new Inbox(store, { retryBaseMs: 100, retryMaxMs: 1000 });
  await inbox.ready();
  const handler = createWebhookHandler({ secret: env.SECRET!, inbox, onError: report('receiver') });
  inbox.work(
    async (event) => {
      // A handler that takes a moment: leases are held when the fault comes.
      await sleep(30);
      appendFileSync(env.EFFECTS_FILE!, `${event.id}\n`);
    },
    { leaseSeconds: Number(env.LEASE_SECONDS ?? 2), concurrency: 4, pollMs: 50, onError: report('worker') },
  );
  const server = createServer((request, response) => void handler.node(request, response));
  server.listen(Number(env.PORT), '127.0.0.1', () => process.send?.('ready'));
}

void main();
