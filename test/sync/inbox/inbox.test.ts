// The inbox's contract, the same for every adapter: a duplicate add is a no-op, a worker processes each event,
// a failure retries with back-off and goes dead after maxAttempts, replay brings an event back, a lease that
// runs out (a dead worker) frees the event while a renewed one keeps it, ordering runs one event per object at
// a time, and on the SQL adapters the handler's writes commit with the done mark or not at all.
import { afterEach, describe, expect, it } from 'vitest';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { MemoryInboxStore } from '../../../src/sync/inbox/memory.js';
import type { InboxStore } from '../../../src/sync/inbox/types.js';
import type { ShopEvent } from '../../../src/webhooks/events.js';
import { adapters } from './adapters.js';

let n = 0;
function event(
  objectId = `obj_${n}`,
  createdAt = new Date(Date.UTC(2026, 8, 24, 10, 0, n)).toISOString(),
): ShopEvent {
  n++;
  return {
    id: `evt_${process.pid}_${n}_${Math.random().toString(36).slice(2, 8)}`,
    object: 'event',
    type: 'inventory.changed',
    api_version: '2026-09-24',
    created_at: createdAt,
    livemode: false,
    data: { object: { id: objectId, object: 'inventory_level' } },
  } as unknown as ShopEvent;
}

const quiet = () => undefined;

describe.each(adapters)('inbox over $name', ({ name, sql, available, open, serverClock }) => {
  let store: InboxStore;
  let cleanup: () => Promise<void> = async () => undefined;
  let clock = 1_000_000;
  const now = () => clock;

  async function fresh(options: ConstructorParameters<typeof Inbox>[1] = {}): Promise<Inbox> {
    ({ store, cleanup } = await open());
    clock = 1_000_000;
    const inbox = new Inbox(store, { now, retryBaseMs: 1000, ...options });
    await inbox.ready();
    return inbox;
  }

  afterEach(async () => {
    await cleanup();
  });

  it.skipIf(!available)('adds an event once: a second add of the id is a no-op', async () => {
    const inbox = await fresh();
    const e = event();
    expect(await inbox.add(e, 'webhook')).toBe('added');
    expect(await inbox.add(e, 'feed')).toBe('duplicate');
    const entry = await inbox.get(e.id);
    expect(entry).toMatchObject({ eventId: e.id, status: 'pending', attempts: 0, source: 'webhook' });
    expect(entry?.event).toEqual(e);
    expect(await inbox.get('evt_never')).toBeNull();
  });

  it.skipIf(!available)('processes each event once and marks it done', async () => {
    const inbox = await fresh();
    const events = [event(), event(), event()];
    for (const e of events) await inbox.add(e, 'webhook');
    const seen: string[] = [];
    const result = await inbox.runOnce(
      async (e, context) => {
        seen.push(e.id);
        expect(context.attempt).toBe(1);
        expect(context.tx === undefined).toBe(!sql);
      },
      { limit: 10, onError: quiet },
    );
    expect(result).toEqual({ done: 3, failed: 0, lost: 0 });
    expect(seen.sort()).toEqual(events.map((e) => e.id).sort());
    expect((await inbox.list('done')).map((entry) => entry.eventId).sort()).toEqual(seen);
    expect(await inbox.runOnce(async () => seen.push('again'), { onError: quiet })).toEqual({
      done: 0,
      failed: 0,
      lost: 0,
    });
  });

  it.skipIf(!available)(
    'retries a failure after its back-off, then dead-letters it; replay brings it back',
    async () => {
      const inbox = await fresh({ maxAttempts: 3 });
      const e = event();
      await inbox.add(e);
      let runs = 0;
      const failing = async () => {
        runs++;
        throw new Error(`boom ${runs}`);
      };
      expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(1);
      expect(await inbox.get(e.id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastError: 'Error: boom 1',
      });
      // Not due before its back-off (at least half of 1 s).
      expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(0);
      clock += 1000;
      expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(1);
      clock += 2000;
      expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(1);
      expect(await inbox.get(e.id)).toMatchObject({
        status: 'dead',
        attempts: 3,
        lastError: 'Error: boom 3',
      });
      clock += 3_600_000;
      expect((await inbox.runOnce(failing, { onError: quiet })).failed).toBe(0);
      expect((await inbox.deadLetters()).map((entry) => entry.eventId)).toEqual([e.id]);

      expect(await inbox.replay(e.id)).toBe(true);
      expect(await inbox.replay('evt_never')).toBe(false);
      expect(await inbox.runOnce(async () => undefined, { onError: quiet })).toEqual({
        done: 1,
        failed: 0,
        lost: 0,
      });
      expect(await inbox.get(e.id)).toMatchObject({ status: 'done', attempts: 1, lastError: null });
      expect(runs).toBe(3);
    },
  );

  it.skipIf(!available || serverClock)(
    'frees the event of a worker that died once its lease runs out, and dead-letters one that kills every run',
    async () => {
      const inbox = await fresh({ maxAttempts: 2 });
      const e = event();
      await inbox.add(e);
      // A worker that leased and died: nothing renews or ends its lease.
      const [lease] = await store.lease({
        limit: 1,
        leaseMs: 30_000,
        now: clock,
        ordered: false,
        worker: 'dead',
      });
      expect(lease?.attempt).toBe(1);
      expect(await inbox.get(e.id)).toMatchObject({ status: 'processing' });
      expect(
        await store.lease({ limit: 1, leaseMs: 30_000, now: clock + 29_999, ordered: false, worker: 'b' }),
      ).toEqual([]);
      clock += 30_000;
      expect(await inbox.get(e.id)).toMatchObject({ status: 'pending' });
      // Its late done mark is refused: the lease it holds was taken over.
      const [second] = await store.lease({
        limit: 1,
        leaseMs: 30_000,
        now: clock,
        ordered: false,
        worker: 'b',
      });
      expect(second?.attempt).toBe(2);
      let ranLate = false;
      const late = await store
        .complete(
          lease!,
          async () => {
            ranLate = true;
          },
          clock,
        )
        .catch((error: unknown) => error);
      expect(late).toBe('lost');
      // The SQL adapters check the lease before running the work; the others run it then refuse the mark.
      expect(ranLate).toBe(!sql);
      clock += 30_000;
      // Past maxAttempts with no run ever finishing: dead, without running the handler again.
      let ran = false;
      expect(
        (
          await inbox.runOnce(
            async () => {
              ran = true;
            },
            { onError: quiet },
          )
        ).failed,
      ).toBe(1);
      expect(ran).toBe(false);
      expect(await inbox.get(e.id)).toMatchObject({ status: 'dead', attempts: 3 });
    },
  );

  it.skipIf(!available)(
    'keeps the lease of a running handler renewed past its length (heartbeat)',
    async () => {
      const inbox = new Inbox((await fresh()).store, { retryBaseMs: 1000 });
      const e = event();
      await inbox.add(e);
      let others = 0;
      const run = inbox.runOnce(
        async () => {
          // Three lease lengths while another worker keeps trying.
          for (let i = 0; i < 6; i++) {
            await new Promise((resolve) => setTimeout(resolve, 500));
            if (!sql) {
              others += (
                await store.lease({ limit: 1, leaseMs: 1000, now: Date.now(), ordered: false, worker: 'x' })
              ).length;
            }
          }
        },
        { leaseSeconds: 1, onError: quiet },
      );
      if (sql) {
        // The SQL adapters hold the row (Postgres) or the write lock (SQLite) instead of renewing.
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      expect(await run).toEqual({ done: 1, failed: 0, lost: 0 });
      expect(others).toBe(0);
    },
  );

  it.skipIf(!available || name === 'redis')(
    'runs one event per object at a time, oldest first, when ordering is asked',
    async () => {
      const inbox = await fresh({ orderingKey: true });
      const a1 = event('obj_a', '2026-09-24T10:00:01Z');
      const a2 = event('obj_a', '2026-09-24T10:00:02Z');
      const b1 = event('obj_b', '2026-09-24T10:00:03Z');
      await inbox.add(a1);
      await inbox.add(a2);
      await inbox.add(b1);
      const first = await store.lease({ limit: 10, leaseMs: 30_000, now: clock, ordered: true, worker: 'w' });
      expect(first.map((lease) => lease.eventId).sort()).toEqual([a1.id, b1.id].sort());
      // a2 waits while a1 is in progress, and while a1 waits for its retry.
      await store.fail(first.find((lease) => lease.eventId === a1.id)!, {
        error: 'x',
        retryAt: clock + 5000,
        dead: false,
        now: clock,
      });
      expect(
        await store.lease({ limit: 10, leaseMs: 30_000, now: clock, ordered: true, worker: 'w' }),
      ).toEqual([]);
      clock += 5000;
      const again = await store.lease({ limit: 10, leaseMs: 30_000, now: clock, ordered: true, worker: 'w' });
      expect(again.map((lease) => lease.eventId)).toEqual([a1.id]);
      await store.complete(again[0]!, async () => undefined, clock);
      const last = await store.lease({ limit: 10, leaseMs: 30_000, now: clock, ordered: true, worker: 'w' });
      expect(last.map((lease) => lease.eventId)).toEqual([a2.id]);
    },
  );

  it.skipIf(!available)(
    'a worker loop drains the inbox with several events at once and stops cleanly',
    async () => {
      const inbox = await fresh();
      const events = Array.from({ length: 25 }, () => event());
      for (const e of events) await inbox.add(e, 'feed');
      const seen = new Set<string>();
      let inFlight = 0;
      let most = 0;
      const worker = inbox.work(
        async (e) => {
          inFlight++;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          seen.add(e.id);
          inFlight--;
        },
        { concurrency: 4, pollMs: 20, onError: quiet },
      );
      await worker.idle();
      await worker.stop();
      expect(seen.size).toBe(25);
      expect(most).toBeGreaterThan(sql && name === 'sqlite' ? 0 : 1);
      expect(most).toBeLessThanOrEqual(4);
    },
  );

  it.skipIf(!available || !sql)("commits the handler's writes with the done mark, or neither", async () => {
    const inbox = await fresh();
    const table = `effects_${name}_${process.pid}_${n}`;
    // The partner's own table, created through a handler's transaction.
    const ok = event();
    const bad = event();
    await inbox.add(ok);
    let created = false;
    const handler = async (
      e: ShopEvent,
      { tx }: { tx: import('../../../src/sync/inbox/types.js').InboxTransaction | undefined },
    ) => {
      if (!created) {
        await tx!.execute(`CREATE TABLE ${table} (event_id TEXT PRIMARY KEY, note TEXT)`);
        created = true;
      }
      const { changes } = await tx!.execute(`INSERT INTO ${table} (event_id, note) VALUES (?, ?)`, [
        e.id,
        "it's",
      ]);
      expect(changes).toBe(1);
      if (e.id === bad.id) throw new Error('after the write');
    };
    expect((await inbox.runOnce(handler, { onError: quiet })).done).toBe(1);
    await inbox.add(bad);
    expect((await inbox.runOnce(handler, { onError: quiet })).failed).toBe(1);
    // Read through a handler's transaction: the failed run's write was rolled back with it.
    await inbox.replay(ok.id);
    let rows: { event_id: string; note: string }[] = [];
    await inbox.runOnce(
      async (_e, { tx }) => {
        rows = await tx!.query(`SELECT event_id, note FROM ${table} ORDER BY event_id`);
      },
      { onError: quiet },
    );
    expect(rows).toEqual([{ event_id: ok.id, note: "it's" }]);
    expect(await inbox.get(bad.id)).toMatchObject({ status: 'pending', attempts: 1 });
  });
});

describe("the worker's signal", () => {
  it('aborts when the heartbeat finds the lease taken over, and the late done mark is refused', async () => {
    let clock = 1_000_000;
    const store = new MemoryInboxStore();
    const inbox = new Inbox(store, { now: () => clock });
    const e = event();
    await inbox.add(e);
    let aborted = false;
    const run = inbox.runOnce(
      async (_event, { signal }) => {
        // This worker stalls past its lease; another takes the event over.
        clock += 2000;
        expect(
          await store.lease({ limit: 1, leaseMs: 1000, now: clock, ordered: false, worker: 'other' }),
        ).toHaveLength(1);
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        aborted = true;
      },
      { leaseSeconds: 1, onError: quiet },
    );
    expect(await run).toEqual({ done: 0, failed: 0, lost: 1 });
    expect(aborted).toBe(true);
  });
});

describe.skipIf(!adapters.find((a) => a.name === 'redis')!.available)(
  'inbox over redis: leases on the server clock',
  () => {
    it('takes over the event of a worker that died once it sat idle a lease long (XAUTOCLAIM), not before', async () => {
      const { store, cleanup } = await adapters.find((a) => a.name === 'redis')!.open();
      try {
        const inbox = new Inbox(store);
        await inbox.ready();
        const e = event();
        await inbox.add(e);
        const [dead] = await store.lease({
          limit: 1,
          leaseMs: 300,
          now: Date.now(),
          ordered: false,
          worker: 'dead',
        });
        expect(dead?.attempt).toBe(1);
        expect(
          await store.lease({ limit: 1, leaseMs: 300, now: Date.now(), ordered: false, worker: 'b' }),
        ).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 400));
        const [taken] = await store.lease({
          limit: 1,
          leaseMs: 300,
          now: Date.now(),
          ordered: false,
          worker: 'b',
        });
        expect(taken?.attempt).toBe(2);
        // The dead worker's late done mark is refused; the new holder's is taken.
        expect(await store.complete(dead!, async () => undefined, Date.now())).toBe('lost');
        expect(await store.complete(taken!, async () => undefined, Date.now())).toBe('done');
        expect(await inbox.get(e.id)).toMatchObject({ status: 'done', attempts: 2 });
        expect(await inbox.add(e)).toBe('duplicate');
      } finally {
        await cleanup();
      }
    });
  },
);
