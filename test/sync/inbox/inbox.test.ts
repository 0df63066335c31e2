// The inbox's contract, the same for every adapter: a duplicate add is a no-op, a worker processes each event,
// a failure retries with back-off and goes dead after maxAttempts, replay brings an event back, a lease that
// runs out (a dead worker) frees the event while a renewed one keeps it, ordering runs one event per object at
// a time, and on the SQL adapters the handler's writes commit with the done mark or not at all.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { MemoryInboxStore } from '../../../src/sync/inbox/memory.js';
import type { InboxStore } from '../../../src/sync/inbox/types.js';
import type { ShopEvent } from '../../../src/webhooks/events.js';
import { adapters } from './adapters.js';
import { anyEvent, at, booked, cancelled, stockEvent } from './events.js';

let n = 0;
function event(): ShopEvent {
  n++;
  return anyEvent(1000 + n, at(n % 60));
}

const quiet = () => undefined;

/**
 * A test that applies to some adapters only: not defined at all for the others (CI refuses skipped tests,
 * and a test that cannot apply is not a skipped one); skipped only when the adapter's server is missing.
 */
function onlyWhen(applies: boolean, available: boolean): ReturnType<typeof it.skipIf> {
  return applies ? it.skipIf(!available) : ((() => undefined) as unknown as ReturnType<typeof it.skipIf>);
}

describe.each(adapters)('inbox over $name', ({ name, sql, available, open, serverClock, heldWrites }) => {
  let store: InboxStore;
  let another: () => Promise<InboxStore>;
  let cleanup: () => Promise<void> = async () => undefined;
  let clock = 1_000_000;
  const now = () => clock;

  async function fresh(options: ConstructorParameters<typeof Inbox>[1] = {}): Promise<Inbox> {
    ({ store, another, cleanup } = await open());
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

  onlyWhen(!serverClock, available)(
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
    'keeps a running event from another worker past its lease length (heartbeat, or the SQL lock)',
    async () => {
      const inbox = new Inbox((await fresh()).store, { retryBaseMs: 1000 });
      const competitor = await another();
      const e = event();
      await inbox.add(e);
      let tries = 0;
      let busy = 0;
      const taken: string[] = [];
      const run = inbox.runOnce(
        async () => {
          // Three lease lengths while another worker (another connection, pool or store) keeps trying.
          for (let i = 0; i < 6; i++) {
            await new Promise((resolve) => setTimeout(resolve, 500));
            tries++;
            // SQLite: the other connection cannot even begin (the write lock is held): SQLITE_BUSY.
            const leased = await competitor
              .lease({ limit: 1, leaseMs: 1000, now: Date.now(), ordered: false, worker: 'x' })
              .catch((error: unknown) => {
                if (/locked|busy/i.test(String(error))) busy++;
                return [];
              });
            taken.push(...leased.map((lease) => lease.eventId));
          }
        },
        { leaseSeconds: 1, handlerTimeoutMs: 20_000, onError: quiet },
      );
      expect(await run).toEqual({ done: 1, failed: 0, lost: 0 });
      expect(tries).toBe(6);
      expect(busy).toBe(name === 'sqlite' ? 6 : 0);
      expect(taken).toEqual([]);
      expect(await inbox.get(e.id)).toMatchObject({ status: 'done', attempts: 1 });
    },
  );

  onlyWhen(name !== 'redis', available)(
    'runs one event per object at a time, oldest first, when ordering is asked (integer ids)',
    async () => {
      const inbox = await fresh({ orderingKey: true });
      const a1 = booked(5001, at(1));
      const a2 = cancelled(5001, at(2));
      const b1 = booked(5002, at(3));
      await inbox.add(a2); // arrives first; created later
      await inbox.add(a1);
      await inbox.add(b1);
      expect((await inbox.get(a1.id))?.orderingKey).toBe('range_reservation:5001');
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

  onlyWhen(name !== 'redis', available)(
    "a failing booked holds back the same reservation's cancelled until it is dead; others run",
    async () => {
      const inbox = await fresh({ orderingKey: true, maxAttempts: 2 });
      const bookedA = booked(7001, at(1));
      const cancelledA = cancelled(7001, at(2));
      const bookedB = booked(7002, at(3));
      for (const e of [bookedA, cancelledA, bookedB]) await inbox.add(e);
      const ran: string[] = [];
      const handler = async (e: ShopEvent) => {
        ran.push(`${e.type} ${String((e.data.object as { id?: unknown }).id)}`);
        if (e.id === bookedA.id) throw new Error('the booking table is locked');
      };
      expect(await inbox.runOnce(handler, { limit: 10, onError: quiet })).toEqual({
        done: 1,
        failed: 1,
        lost: 0,
      });
      clock += 1000;
      expect(await inbox.runOnce(handler, { limit: 10, onError: quiet })).toEqual({
        done: 0,
        failed: 1,
        lost: 0,
      });
      expect(await inbox.get(bookedA.id)).toMatchObject({ status: 'dead' });
      expect(await inbox.get(cancelledA.id)).toMatchObject({ status: 'pending', attempts: 0 });
      // Dead: the reservation's later events go on.
      expect(await inbox.runOnce(handler, { limit: 10, onError: quiet })).toEqual({
        done: 1,
        failed: 0,
        lost: 0,
      });
      // The two bookings run at once (in either order); the cancellation only after 7001 went dead.
      expect(ran.slice(0, 2).sort()).toEqual([
        'range.reservation.booked 7001',
        'range.reservation.booked 7002',
      ]);
      expect(ran.slice(2)).toEqual(['range.reservation.booked 7001', 'range.reservation.cancelled 7001']);
    },
  );

  onlyWhen(name !== 'redis', available)(
    'orders stock events per product and location (inventory.changed has no id)',
    async () => {
      const inbox = await fresh({ orderingKey: true });
      const p1l1first = stockEvent(11, 1, 5, at(1));
      const p1l1second = stockEvent(11, 1, 4, at(2));
      const p1l2 = stockEvent(11, 2, 9, at(3));
      const p2l1 = stockEvent(12, 1, 7, at(4));
      await inbox.add(p1l1second); // the later change arrives first
      for (const e of [p1l1first, p1l2, p2l1]) await inbox.add(e);
      expect((await inbox.get(p1l1first.id))?.orderingKey).toBe('inventory_level:11:1');
      const applied: number[] = [];
      const handler = async (e: ShopEvent) => {
        if (e.type === 'inventory.changed') applied.push(e.data.object.qty_available);
      };
      expect((await inbox.runOnce(handler, { limit: 10, onError: quiet })).done).toBe(3);
      expect([...applied].sort()).toEqual([5, 7, 9]);
      expect((await inbox.runOnce(handler, { limit: 10, onError: quiet })).done).toBe(1);
      // The mirror ends with the later level of product 11 at location 1.
      expect(applied).toHaveLength(4);
      expect(applied.at(-1)).toBe(4);
    },
  );

  onlyWhen(name !== 'redis', available)(
    'orders by the documented key function (event) => event.data.object.id, integer ids',
    async () => {
      const inbox = await fresh({ orderingKey: (e) => e.data.object.id });
      const a1 = booked(9001, at(1));
      const a2 = cancelled(9001, at(2));
      await inbox.add(a2);
      await inbox.add(a1);
      expect((await inbox.get(a1.id))?.orderingKey).toBe('9001');
      const first = await store.lease({ limit: 10, leaseMs: 30_000, now: clock, ordered: true, worker: 'w' });
      expect(first.map((lease) => lease.eventId)).toEqual([a1.id]);
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

  // D1's held writes have their own test (d1.test.ts): their `changes` are not known in the handler.
  onlyWhen(sql && !heldWrites, available)(
    "commits the handler's writes with the done mark, or neither",
    async () => {
      const inbox = await fresh();
      // Random: a mutation run re-runs this file in one process, where a pid and a counter repeat.
      const table = `effects_${name}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
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
    },
  );
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
