// The worker's bounds, the same on every adapter: a handler that never settles is cut off at its deadline
// (rolled back, counted, retried, dead) and the rest go on; stop() resolves within its bound; a stored error
// carries no credential; a wall-clock step back moves no retry or lease; done events and dead letters are
// pruned in small batches past their retention.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Inbox, type InboxOptions } from '../../../src/sync/inbox/inbox.js';
import type { InboxStore } from '../../../src/sync/inbox/types.js';
import type { ShopEvent } from '../../../src/webhooks/events.js';
import { adapters } from './adapters.js';
import { anyEvent } from './events.js';

const quiet = () => undefined;

/** A test for some adapters only: not defined for the others (CI refuses skipped tests). */
function onlyWhen(applies: boolean, available: boolean): ReturnType<typeof it.skipIf> {
  return applies ? it.skipIf(!available) : ((() => undefined) as unknown as ReturnType<typeof it.skipIf>);
}
const never = () => new Promise<never>(() => undefined);

describe.each(adapters)('the inbox worker over $name', ({ sql, available, open, serverClock }) => {
  let store: InboxStore;
  let cleanup: () => Promise<void> = async () => undefined;
  const EPOCH = Date.UTC(2026, 8, 24);
  let clock = EPOCH;

  async function fresh(options: InboxOptions = {}): Promise<Inbox> {
    ({ store, cleanup } = await open());
    clock = EPOCH;
    const inbox = new Inbox(store, { now: () => clock, ...options });
    await inbox.ready();
    return inbox;
  }

  afterEach(async () => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    await cleanup();
  });

  it.skipIf(!available)(
    'cuts off a handler that never settles at its deadline (a third of the lease): counted, retried, dead; the rest go on',
    async () => {
      const inbox = await fresh({ maxAttempts: 2, retryBaseMs: 0 });
      const hung = anyEvent();
      const good = anyEvent();
      await inbox.add(hung);
      await inbox.add(good);
      const reasons: string[] = [];
      const late: string[] = [];
      const worker = inbox.work(
        async (e, { signal, tx }) => {
          if (e.id !== hung.id) return;
          signal.addEventListener('abort', () => {
            reasons.push(String((signal.reason as Error).message));
            // Its transaction is over: a late statement fails instead of landing outside it.
            tx?.execute('SELECT 1').catch((error: Error) => late.push(error.message));
          });
          await never();
        },
        { concurrency: 2, leaseSeconds: 1, pollMs: 10, onError: quiet },
      );
      // Resolves only once the hung event went dead and the good one is done: on SQLite the hung
      // transaction held the only connection until its deadline.
      await worker.idle();
      await worker.stop();
      expect(await inbox.get(hung.id)).toMatchObject({
        status: 'dead',
        attempts: 2,
        lastError: 'ShopError: The handler timed out after 333 ms.',
      });
      expect(await inbox.get(good.id)).toMatchObject({ status: 'done', attempts: 1 });
      expect(reasons).toEqual(['The handler timed out after 333 ms.', 'The handler timed out after 333 ms.']);
      await vi.waitFor(() => expect(late).toHaveLength(sql ? 2 : 0));
    },
    20_000,
  );

  it.skipIf(!available)(
    'stop() resolves within stopTimeoutMs with a handler that ignores its signal; the event is retried',
    async () => {
      const inbox = await fresh({ retryBaseMs: 0 });
      const e = anyEvent();
      await inbox.add(e);
      let started!: () => void;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      let aborted = false;
      const worker = inbox.work(
        async (_event, { signal }) => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
          started();
          await never();
        },
        { handlerTimeoutMs: 600_000, stopTimeoutMs: 100, pollMs: 10, onError: quiet },
      );
      await running;
      await worker.stop();
      expect(aborted).toBe(true);
      expect(await inbox.get(e.id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastError: 'ShopError: The worker stopped with the handler still running after 100 ms.',
      });
    },
    20_000,
  );

  it.skipIf(!available)(
    'stores a failure without the API key, webhook secrets or bearer tokens',
    async () => {
      vi.stubEnv('SHOP_API_KEY', 'key_live_from_env_9f8e7d');
      const inbox = await fresh({ secrets: ['partner-own-secret-value'] });
      const envInbox = new Inbox(store, { now: () => clock });
      const one = anyEvent();
      const two = anyEvent();
      await inbox.add(one);
      const message =
        'upstream said: Authorization: Bearer tok_abc.DEF-123 with whsec_c2VjcmV0IHNpZ25pbmc= and partner-own-secret-value';
      await inbox.runOnce(
        async () => {
          throw new Error(message);
        },
        { onError: quiet },
      );
      const stored = (await inbox.get(one.id))?.lastError ?? '';
      expect(stored).toBe(
        'Error: upstream said: Authorization: Bearer [redacted] with [redacted] and [redacted]',
      );
      // By default the SDK's environment values are cut out too.
      await envInbox.add(two);
      await envInbox.runOnce(
        async () => {
          throw new Error('the shop refused key_live_from_env_9f8e7d');
        },
        { onError: quiet },
      );
      expect((await envInbox.get(two.id))?.lastError).toBe('Error: the shop refused [redacted]');
    },
  );

  it.skipIf(!available)(
    "a wall-clock step back while the process runs delays no retry (the worker's clock is monotonic)",
    async () => {
      ({ store, cleanup } = await open());
      // The system clock, as the inbox's default clock reads it; it steps back by an hour below.
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      const inbox = new Inbox(store, { retryBaseMs: 100, retryMaxMs: 100 });
      const e = anyEvent();
      await inbox.add(e);
      expect(
        (
          await inbox.runOnce(
            async () => {
              throw new Error('first run');
            },
            { onError: quiet },
          )
        ).failed,
      ).toBe(1);
      vi.setSystemTime(Date.now() - 3_600_000);
      // Past the longest back-off (100 ms) on any clock that did not step.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await inbox.runOnce(async () => undefined, { onError: quiet })).done).toBe(1);
    },
  );

  it.skipIf(!available)(
    'a worker whose clock is an hour behind the stored retry times runs the event (past the retry horizon)',
    async () => {
      const inbox = await fresh({ retryBaseMs: 1000, retryMaxMs: 10_000 });
      const e = anyEvent();
      await inbox.add(e);
      await inbox.runOnce(
        async () => {
          throw new Error('first run');
        },
        { onError: quiet },
      );
      const behind = new Inbox(store, { now: () => clock - 3_600_000, retryMaxMs: 10_000 });
      expect((await behind.runOnce(async () => undefined, { onError: quiet })).done).toBe(1);
    },
  );

  onlyWhen(!serverClock, available)(
    'a worker whose clock is an hour behind takes over the event of a dead worker after its lease, not an hour later',
    async () => {
      const inbox = await fresh();
      const e = anyEvent();
      await inbox.add(e);
      const [dead] = await store.lease({
        limit: 1,
        leaseMs: 30_000,
        now: clock,
        ordered: false,
        worker: 'dead',
      });
      expect(dead?.attempt).toBe(1);
      const behind = new Inbox(store, { now: () => clock - 3_600_000 });
      expect(await behind.runOnce(async () => undefined, { leaseSeconds: 30, onError: quiet })).toEqual({
        done: 1,
        failed: 0,
        lost: 0,
      });
      expect(await inbox.get(e.id)).toMatchObject({ status: 'done', attempts: 2 });
    },
  );

  it.skipIf(!available)(
    'prunes done events past retention in small batches; dead letters stay until handled unless deadMs is set',
    async () => {
      const inbox = await fresh({ maxAttempts: 1, retention: { doneMs: 1000 } });
      const done1 = anyEvent();
      const done2 = anyEvent();
      const dead = anyEvent();
      const waiting = anyEvent();
      for (const e of [done1, done2, dead]) await inbox.add(e);
      const handler = async (e: ShopEvent) => {
        if (e.id === dead.id) throw new Error('bad');
      };
      expect(await inbox.runOnce(handler, { limit: 10, onError: quiet })).toEqual({
        done: 2,
        failed: 1,
        lost: 0,
      });
      await inbox.add(waiting);
      expect(await inbox.prune()).toBe(0);
      clock += 1001;
      expect(await inbox.prune(1)).toBe(1);
      expect(await inbox.prune(1)).toBe(1);
      expect(await inbox.prune()).toBe(0);
      expect(await inbox.get(done1.id)).toBeNull();
      expect(await inbox.get(done2.id)).toBeNull();
      expect(await inbox.list('done')).toEqual([]);
      expect(await inbox.get(dead.id)).toMatchObject({ status: 'dead' });
      expect(await inbox.get(waiting.id)).toMatchObject({ status: 'pending' });
      clock += 365 * 24 * 3600 * 1000;
      expect(await inbox.prune()).toBe(0);
      const withDeadMs = new Inbox(store, { now: () => clock, retention: { doneMs: 1000, deadMs: 5000 } });
      expect(await withDeadMs.prune()).toBe(1);
      expect(await inbox.get(dead.id)).toBeNull();
      expect(await inbox.get(waiting.id)).toMatchObject({ status: 'pending' });
    },
  );
});

describe.skipIf(!adapters.find((a) => a.name === 'redis')!.available)(
  'the Redis inbox: indexes stay bounded',
  () => {
    it('moves settled events out of the open index and forgets idle worker names', async () => {
      const { createClient } = await import('redis');
      const { RedisInboxStore } = await import('../../../src/sync/inbox/redis.js');
      const { inject } = await import('vitest');
      const client = await createClient({ url: inject('redisUrl')! }).connect();
      const keyPrefix = `{bounded-${process.pid}-${Date.now()}}:`;
      try {
        const store = new RedisInboxStore(client, { keyPrefix, consumerIdleMs: 0 });
        const inbox = new Inbox(store, { maxAttempts: 1 });
        const events = Array.from({ length: 300 }, () => anyEvent());
        for (const e of events) await inbox.add(e);
        let runs = 0;
        for (const name of ['w1', 'w2', 'w3']) {
          const result = await inbox.runOnce(
            async (e) => {
              runs++;
              if (e.id === events[0]!.id) throw new Error('bad');
            },
            { limit: 100, name, onError: quiet },
          );
          expect(result.done + result.failed).toBe(100);
        }
        expect(runs).toBe(300);
        expect(await client.zCard(`${keyPrefix}all`)).toBe(0);
        expect(await client.zCard(`${keyPrefix}done`)).toBe(299);
        expect(await client.zCard(`${keyPrefix}dead`)).toBe(1);
        expect(await inbox.list('done', 5)).toHaveLength(5);
        expect((await client.xInfoConsumers(`${keyPrefix}stream`, 'workers')).length).toBe(3);
        expect(await inbox.prune()).toBe(0);
        expect((await client.xInfoConsumers(`${keyPrefix}stream`, 'workers')).length).toBe(0);
      } finally {
        const keys = await client.keys(`${keyPrefix}*`);
        if (keys.length > 0) await client.del(keys);
        await client.quit();
      }
    });
  },
);
