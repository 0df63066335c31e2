// A partner's receiver and worker on the Postgres inbox, in its own process, as postgres-faults.test.ts runs
// it while the database restarts, stops, stalls and ends its sessions: the webhook handler writes each
// delivery into the inbox, the worker applies it through `tx` (an effects row committed with the done mark).
// Every error the receiver or the worker reports goes to stderr as `error <where> <name>: <message>`.
// Bundled by the test with esbuild; configured by environment variables.
import { createServer } from 'node:http';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { PostgresInboxStore } from '../../../src/sync/inbox/postgres.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';

const env = process.env as Record<string, string>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const report = (where: string) => (error: unknown) => {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  process.stderr.write(`error ${where} ${name}: ${message}\n`);
};

async function main(): Promise<void> {
  const store = await PostgresInboxStore.connect(env.PG_URL!);
  const inbox = new Inbox(store, { retryBaseMs: 100, retryMaxMs: 1000 });
  await inbox.ready();
  const handler = createWebhookHandler({ secret: env.SECRET!, inbox, onError: report('receiver') });
  inbox.work(
    async (event, { tx }) => {
      await tx!.execute('INSERT INTO effects (event_id) VALUES (?)', [event.id]);
      // A handler that takes a moment: transactions are open when the fault comes.
      await sleep(30);
    },
    { leaseSeconds: Number(env.LEASE_SECONDS ?? 2), concurrency: 4, pollMs: 50, onError: report('worker') },
  );
  const server = createServer((request, response) => void handler.node(request, response));
  server.listen(Number(env.PORT), '127.0.0.1', () => process.send?.('ready'));
}

void main();
