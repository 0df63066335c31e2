// A partner's receiver as the crash test runs it, in its own process: the webhook handler, the worker and the
// feed catch-up, with self-inflicted SIGKILLs at the points the issue names (before the insert, between the
// insert and the answer, mid-handler, mid-heartbeat). Each kill is written to KILL_LOG first. Bundled by
// crash.test.ts with esbuild; configured by environment variables.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { ShopClient } from '../../../src/client.js';
import { EventCatchUp } from '../../../src/sync/catch-up.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { PostgresInboxStore } from '../../../src/sync/inbox/postgres.js';
import { openSqliteDatabase, SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';
import type { InboxStore } from '../../../src/sync/inbox/types.js';
import type { ShopEvent } from '../../../src/webhooks/events.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';
import { RedisDedupeStore } from '../../../src/webhooks/redis.js';

const env = process.env as Record<string, string>;
const P = Number(env.CRASH_P);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function maybeDie(point: string, probability = P): void {
  if (Math.random() < probability) {
    appendFileSync(env.KILL_LOG!, `${point}\n`);
    process.kill(process.pid, 'SIGKILL');
  }
}

const client = new ShopClient({ apiKey: env.API_KEY!, baseUrl: env.API_URL!, maxRetries: 0 });
const quiet = () => undefined;
// The sandbox clock runs days ahead of this process's (the parent walks it through the retry schedule), and
// its deliveries are signed with its time: the signature's clock check is not what this test is about.
const TOLERANCE = 30 * 24 * 3600;
const LEASE = Number(env.LEASE ?? 1);

async function main(): Promise<void> {
  let handler: ReturnType<typeof createWebhookHandler>;
  let catchUp: EventCatchUp;
  if (env.MODE === 'sqlite-inbox' || env.MODE === 'postgres-inbox') {
    let store: InboxStore;
    if (env.MODE === 'sqlite-inbox') {
      // better-sqlite3, or node:sqlite where better-sqlite3 does not load (Node 24 in CI).
      const db = await openSqliteDatabase(env.DB!);
      db.exec('CREATE TABLE IF NOT EXISTS effects (event_id TEXT NOT NULL)');
      store = new SqliteInboxStore(db);
    } else {
      // Two "machines" share the database in the parent's eyes: every restart is a new one.
      const postgres = await PostgresInboxStore.connect(env.PG_URL!, { table: env.TABLE! });
      store = postgres;
    }
    const inbox = new Inbox(store, { retryBaseMs: 50, retryMaxMs: 500 });
    await inbox.ready();
    const writing = {
      add: async (event: ShopEvent, source: 'webhook') => {
        maybeDie('before-insert');
        const added = await inbox.add(event, source);
        maybeDie('between-insert-and-answer');
        return added;
      },
    };
    handler = createWebhookHandler({
      secret: env.SECRET!,
      toleranceSeconds: TOLERANCE,
      inbox: writing,
      onError: quiet,
    });
    inbox.work(
      async (event, { tx }) => {
        await tx!.execute(`INSERT INTO ${env.EFFECTS_TABLE ?? 'effects'} (event_id) VALUES (?)`, [event.id]);
        maybeDie('mid-handler');
        if (Math.random() < P * 4) {
          // Past the lease: the transaction still holds the event; a kill here is one mid-"heartbeat".
          await sleep(1200);
          maybeDie('mid-heartbeat', P > 0 ? 0.5 : 0);
        }
      },
      { leaseSeconds: 1, concurrency: 4, pollMs: 20, onError: quiet },
    );
    catchUp = new EventCatchUp({ client, inbox, since: env.SINCE!, type: 'coupon.created' });
  } else {
    const redis = await createClient({ url: env.REDIS_URL! }).connect();
    const dedupe = new RedisDedupeStore(redis, { keyPrefix: env.PREFIX! });
    const onEvent = async (
      event: ShopEvent,
      context: { source: string; delivery: { attempt: number | null } | null },
    ) => {
      maybeDie('mid-handler-before-effect');
      appendFileSync(
        env.EFFECTS!,
        `${event.id} ${context.source} ${context.delivery?.attempt ?? '-'} ${process.pid} ${Date.now()}\n`,
      );
      maybeDie('mid-handler-after-effect');
      if (Math.random() < P * 4) {
        await sleep(1200); // past the 1 s lease: only the heartbeat keeps it
        maybeDie('mid-heartbeat', P > 0 ? 0.5 : 0);
      }
    };
    const withKills = {
      claim: async (id: string, lease: number) => {
        maybeDie('before-claim');
        return dedupe.claim(id, lease);
      },
      renew: (id: string, token: string, lease: number) => dedupe.renew(id, token, lease),
      complete: async (id: string, token: string, ttl: number) => {
        await dedupe.complete(id, token, ttl);
        maybeDie('between-done-and-answer');
      },
      isDone: (id: string) => dedupe.isDone(id),
      release: (id: string, token?: string) => dedupe.release(id, token),
    };
    handler = createWebhookHandler({
      secret: env.SECRET!,
      toleranceSeconds: TOLERANCE,
      dedupe: withKills,
      leaseSeconds: LEASE,
      onEvent,
      onError: quiet,
    });
    catchUp = new EventCatchUp({
      client,
      dedupe: withKills,
      leaseSeconds: LEASE,
      onEvent,
      since: env.SINCE!,
      type: 'coupon.created',
    });
  }
  const server = createServer((req, res) => void handler.node(req, res));
  server.listen(Number(env.PORT), '127.0.0.1', () => process.send?.('ready'));
  catchUp.start({ intervalMs: 200, onError: quiet });
}

void main();
