// A partner's receiver as the crash test runs it, in its own process: the webhook handler, the worker and the
// feed catch-up with a checkpoint kept in a file (as production keeps it: a restart resumes where the last
// run stopped, it does not re-read the feed), with self-inflicted SIGKILLs at named points (see POINTS in
// crash-run.ts). Each kill is written to KILL_LOG first. A point dies at random (CRASH_P) and, so that every
// point is reached in every run, at the KILL_NTH time this process passes KILL_AT (the supervisor names one
// per start). CATCH_UP=off runs no catch-up at all: then only webhooks bring events. Bundled by crash-run.ts
// with esbuild; configured by environment variables.
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { ShopClient } from '../../../src/client.js';
import { EventCatchUp } from '../../../src/sync/catch-up.js';
import type { Checkpoint, CheckpointStore } from '../../../src/sync/checkpoint.js';
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

const KILL_AT = env.KILL_AT ?? '';
const KILL_NTH = Number(env.KILL_NTH ?? 0);
let passes = 0;

function die(point: string): never {
  appendFileSync(env.KILL_LOG!, `${point}\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

/** True when this pass of `point` is the one the supervisor named for this process. */
function scheduled(point: string): boolean {
  return point === KILL_AT && ++passes === KILL_NTH;
}

function maybeDie(point: string, probability = P): void {
  if (scheduled(point) || Math.random() < probability) die(point);
}

/** The catch-up's checkpoint in a JSON file, replaced whole (write, then rename), as a partner keeps it. */
class FileCheckpointStore implements CheckpointStore {
  constructor(readonly path: string) {}

  load(): Checkpoint | null {
    return existsSync(this.path) ? (JSON.parse(readFileSync(this.path, 'utf8')) as Checkpoint) : null;
  }

  save(checkpoint: Checkpoint): void {
    maybeDie('before-checkpoint-save');
    writeFileSync(`${this.path}.tmp`, JSON.stringify(checkpoint));
    renameSync(`${this.path}.tmp`, this.path);
  }
}

/** A run past the 1 s lease, and maybe a kill in it: the scheduled one, or at random. */
async function maybeSlow(): Promise<void> {
  const planned = scheduled('mid-heartbeat');
  if (!planned && Math.random() >= P * 4) return;
  await sleep(1200);
  if (planned || (P > 0 && Math.random() < 0.5)) die('mid-heartbeat');
}

const client = new ShopClient({ apiKey: env.API_KEY!, baseUrl: env.API_URL!, maxRetries: 0 });
const quiet = () => undefined;
// The sandbox clock runs days ahead of this process's (the parent walks it through the retry schedule), and
// its deliveries are signed with its time: the signature's clock check is not what this test is about.
const TOLERANCE = 30 * 24 * 3600;
const LEASE = Number(env.LEASE ?? 1);
const checkpoints = new FileCheckpointStore(env.CHECKPOINT!);

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
        // Past the lease: the transaction still holds the event; a kill here is one mid-"heartbeat".
        await maybeSlow();
      },
      // The deadline past the slow run: a kill mid-"heartbeat" must come while the transaction holds the event.
      { leaseSeconds: 1, handlerTimeoutMs: 3000, concurrency: 4, pollMs: 20, onError: quiet },
    );
    catchUp = new EventCatchUp({ client, inbox, checkpoints, since: env.SINCE!, type: 'coupon.created' });
  } else {
    // Loaded only here: the redis package takes most of a second to load, a restart's downtime elsewhere.
    const { createClient } = await import('redis');
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
      await maybeSlow(); // past the 1 s lease: only the heartbeat keeps it
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
      checkpoints,
      since: env.SINCE!,
      type: 'coupon.created',
    });
  }
  const server = createServer((req, res) => void handler.node(req, res));
  server.listen(Number(env.PORT), '127.0.0.1', () => process.send?.('ready'));
  // The catch-up on a timer, its first run a second after the start: the service's retries of what the
  // downtime refused (sent once the parent sees this process ready) go first, as a minute-scale timer lets them.
  // A process named to die saving the checkpoint runs it at once (it may not live a second).
  if (env.CATCH_UP !== 'off') {
    const first = KILL_AT === 'before-checkpoint-save' ? 0 : 1000;
    setTimeout(() => catchUp.start({ intervalMs: Number(env.CATCH_UP_MS), onError: quiet }), first);
  }
}

void main();
