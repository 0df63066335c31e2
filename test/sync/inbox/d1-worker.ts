// The Worker d1-workerd.test.ts runs in workerd (bundled by esbuild, no node: import, no nodejs_compat): the
// recipe of docs/webhooks-on-workers.md. `fetch` verifies each delivery and writes it to the D1 inbox before
// answering, then nudges the queue; the Queue consumer and the `scheduled` handler drain the inbox through
// the inbox worker. The handler writes one row per run into `effects` (no unique key: a second apply would
// show) through `tx`. The test's failures: the events listed in FLAKY throw after their write on the first
// run; the event HANG_ID (isolate 1 only) writes its effect, marks `marks`, and never settles: the test
// tears the isolate down there. With GATE set, the queue consumer waits for the test's 'go' mark: an event
// drained before its object's earlier event was delivered could not be put after it.
import { type D1DatabaseLike, D1InboxStore } from '../../../src/sync/inbox/d1.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import type { InboxHandler, InboxTransaction } from '../../../src/sync/inbox/types.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';

interface Env {
  readonly DB: D1DatabaseLike;
  readonly SECRET: string;
  readonly QUEUE: { send(body: unknown): Promise<void> };
  readonly HANG_ID?: string;
  readonly FLAKY?: string;
  /** The test's gate: the queue consumer drains only once `marks` holds 'go' (every delivery is in by then). */
  readonly GATE?: string;
}

// One Inbox per isolate and binding: its table is created once (setup), not on every delivery.
const inboxes = new WeakMap<object, Inbox<InboxTransaction>>();
function inboxOf(env: Env): Inbox<InboxTransaction> {
  let inbox = inboxes.get(env.DB);
  if (!inbox) {
    inbox = new Inbox(new D1InboxStore(env.DB), { orderingKey: true, retryBaseMs: 0, maxAttempts: 5 });
    inboxes.set(env.DB, inbox);
  }
  return inbox;
}

function handlerOf(env: Env): InboxHandler<InboxTransaction> {
  const flaky = new Set((env.FLAKY ?? '').split(',').filter(Boolean));
  return async (event, { tx, attempt }) => {
    await tx.execute('INSERT INTO effects (event_id, attempt) VALUES (?, ?)', [event.id, attempt]);
    if (event.id === env.HANG_ID) {
      await env.DB.prepare('INSERT INTO marks (what) VALUES (?)').bind(`hung ${event.id}`).all();
      await new Promise<never>(() => undefined);
    }
    if (flaky.has(event.id) && attempt === 1) throw new Error('simulated failure after the write');
  };
}

/** Runs the inbox worker until nothing is due (or `rounds` batches ran). */
async function drain(env: Env, rounds = 100): Promise<void> {
  const inbox = inboxOf(env);
  const handler = handlerOf(env);
  for (let round = 0; round < rounds; round++) {
    const { done, failed, lost } = await inbox.runOnce(handler, {
      limit: 8,
      leaseSeconds: 1,
      handlerTimeoutMs: 30_000,
      onError: () => undefined,
    });
    if (done + failed + lost === 0) return;
  }
}

export default {
  async fetch(
    request: Request,
    env: Env,
    ctx: { waitUntil(promise: Promise<unknown>): void },
  ): Promise<Response> {
    const webhooks = createWebhookHandler({ secret: env.SECRET, inbox: inboxOf(env) });
    // Answered once the event is in D1 (200), or 503 when D1 failed: the sender retries.
    const response = await webhooks(request);
    if (response.status === 200) ctx.waitUntil(env.QUEUE.send({ wake: true }));
    return response;
  },
  async queue(batch: { ackAll(): void }, env: Env): Promise<void> {
    if (env.GATE) {
      const go = await env.DB.prepare("SELECT 1 FROM marks WHERE what = 'go'").all();
      if ((go.results ?? []).length === 0) return batch.ackAll();
    }
    await drain(env);
    batch.ackAll();
  },
  async scheduled(_controller: unknown, env: Env): Promise<void> {
    await drain(env);
  },
};
