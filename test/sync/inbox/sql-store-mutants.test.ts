// The SQL inbox store (SQLite and Postgres) as the inbox and a partner's tooling use it: the table name it
// writes into SQL is checked, each state is listed oldest first up to the limit (an event under a live lease
// is "processing", back to "pending" once its lease is over), a lease taken over leaves its first holder
// with nothing (no done mark, no handler run, no renewal), and the handler's transaction is usable only
// while the handler runs. Written against the mutants Stryker left alive in src/sync/inbox/sql-store.ts
// (bench/mutation-report.md): each test fails with the rule it names broken.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShopError } from '../../../src/core/errors/shop-error.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { SqliteInboxStore } from '../../../src/sync/inbox/sqlite.js';
import type { InboxStore, InboxTransaction } from '../../../src/sync/inbox/types.js';
import { adapters } from './adapters.js';
import { anyEvent, at, booked, cancelled } from './events.js';

const quiet = () => undefined;

describe('the SQL inbox table name', () => {
  const dirs: string[] = [];
  const path = () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-name-'));
    dirs.push(dir);
    return join(dir, 'inbox.db');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a name that is not letters, digits and _ (it is written into SQL), naming the one given', async () => {
    const bad = ['shop inbox', '1inbox', 'inbox;', 'x; DROP TABLE t', 'a-b', '', 'x'.repeat(64)];
    for (const table of bad) {
      const error = await SqliteInboxStore.open(path(), { table }).catch((caught: unknown) => caught);
      expect(error, table).toBeInstanceOf(ShopError);
      expect((error as Error).message).toBe(
        `The inbox table name must be letters, digits and _ (got ${JSON.stringify(table)}).`,
      );
    }
    expect(bad).toHaveLength(7);
  });

  it('takes the longest name Postgres allows, and shop_inbox when none is given', async () => {
    const file = path();
    const long = `i${'x'.repeat(62)}`;
    const named = await SqliteInboxStore.open(file, { table: long });
    const plain = await SqliteInboxStore.open(file);
    try {
      await new Inbox(named).ready();
      await new Inbox(plain).ready();
      let tables: { name: string }[] = [];
      await new Inbox(plain).add(anyEvent(1, at(1)));
      await new Inbox(plain).runOnce(
        async (_event, { tx }) => {
          tables = await tx!.query<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
          );
        },
        { onError: quiet },
      );
      expect(tables.map((table) => table.name)).toEqual([long, 'shop_inbox']);
    } finally {
      await named.close();
      await plain.close();
    }
  });
});

describe.each(adapters.filter((adapter) => adapter.sql))('the inbox over $name', ({ available, open }) => {
  let store: InboxStore;
  let another: () => Promise<InboxStore>;
  let cleanup: () => Promise<void> = async () => undefined;
  let clock = 5_000_000;
  const now = () => clock;

  async function fresh(options: ConstructorParameters<typeof Inbox>[1] = {}): Promise<Inbox> {
    ({ store, another, cleanup } = await open());
    clock = 5_000_000;
    const inbox = new Inbox(store, { now, retryBaseMs: 1000, ...options });
    await inbox.ready();
    return inbox;
  }

  afterEach(async () => {
    await cleanup();
  });

  it.skipIf(!available)(
    'lists each state oldest first up to the limit; a leased event is processing until its lease is over',
    async () => {
      const inbox = await fresh();
      const events = [anyEvent(1, at(1)), anyEvent(2, at(2)), anyEvent(3, at(3)), anyEvent(4, at(4))];
      for (const event of events) {
        await inbox.add(event, 'webhook');
        clock += 10;
      }
      const ids = (entries: { eventId: string }[]) => entries.map((entry) => entry.eventId);
      expect(ids(await inbox.list('pending'))).toEqual(events.map((event) => event.id));
      expect(ids(await inbox.list('pending', 2))).toEqual([events[0]!.id, events[1]!.id]);
      expect((await inbox.get(events[2]!.id))?.receivedAt).toBe(5_000_020);

      const [held] = await store.lease({
        limit: 1,
        leaseMs: 30_000,
        now: clock,
        ordered: false,
        worker: 'w1',
      });
      expect(held?.eventId).toBe(events[0]!.id);
      expect(ids(await inbox.list('processing'))).toEqual([events[0]!.id]);
      expect(ids(await inbox.list('pending'))).toEqual(events.slice(1).map((event) => event.id));
      expect(await inbox.get(events[0]!.id)).toMatchObject({ status: 'processing', attempts: 1 });

      // Done, and dead: listed in their own states, with the failure kept.
      expect(await store.complete(held!, async () => undefined, clock)).toBe('done');
      const [failing] = await store.lease({
        limit: 1,
        leaseMs: 30_000,
        now: clock,
        ordered: false,
        worker: 'w1',
      });
      await store.fail(failing!, { error: 'boom', retryAt: 0, dead: true, now: clock });
      expect(ids(await inbox.list('done'))).toEqual([events[0]!.id]);
      expect(await inbox.list('dead')).toMatchObject([
        { eventId: events[1]!.id, status: 'dead', lastError: 'boom' },
      ]);
      expect(ids(await inbox.list('pending'))).toEqual([events[2]!.id, events[3]!.id]);

      // A lease whose holder died: processing while it lasts, pending once it is over.
      const [stuck] = await store.lease({
        limit: 1,
        leaseMs: 1_000,
        now: clock,
        ordered: false,
        worker: 'w1',
      });
      expect((await inbox.get(stuck!.eventId))?.status).toBe('processing');
      clock += 999;
      expect((await inbox.get(stuck!.eventId))?.status).toBe('processing');
      // At its end the lease is over (another worker may lease the event at that instant): pending.
      clock += 1;
      expect((await inbox.get(stuck!.eventId))?.status).toBe('pending');
      expect(ids(await inbox.list('processing'))).toEqual([]);
      expect(ids(await inbox.list('pending'))).toEqual([events[2]!.id, events[3]!.id]);
    },
  );

  it.skipIf(!available)(
    'leaves a worker whose lease was taken over with nothing: no renewal, no done mark, no handler run',
    async () => {
      const inbox = await fresh();
      const event = anyEvent(9, at(9));
      await inbox.add(event, 'feed');
      const [first] = await store.lease({
        limit: 4,
        leaseMs: 1_000,
        now: clock,
        ordered: false,
        worker: 'w1',
      });
      expect(first).toMatchObject({ eventId: event.id, attempt: 1, source: 'feed', suspect: false });
      expect(await store.renew(first!, 1_000, clock + 500)).toBe(true);
      // The first worker went quiet past its renewed lease: another process takes the event over, alone.
      const other = await another();
      const taken = await other.lease({
        limit: 4,
        leaseMs: 30_000,
        now: clock + 2_000,
        ordered: false,
        worker: 'w2',
      });
      expect(taken).toMatchObject([{ eventId: event.id, attempt: 2, suspect: true }]);
      expect(await store.renew(first!, 1_000, clock + 2_100)).toBe(false);
      let ran = false;
      expect(
        await store.complete(
          first!,
          async () => {
            ran = true;
          },
          clock + 2_200,
        ),
      ).toBe('lost');
      expect(ran).toBe(false);
      expect(await other.complete(taken[0]!, async () => undefined, clock + 2_300)).toBe('done');
      expect(await inbox.get(event.id)).toMatchObject({ status: 'done', attempts: 2 });
    },
  );

  it.skipIf(!available)(
    'runs two events of one object with one created_at one at a time, in the order they came; keys kept',
    async () => {
      const inbox = await fresh({ orderingKey: true });
      const first = booked(77, at(30));
      const second = cancelled(77, at(30));
      const unkeyed = { ...anyEvent(5, at(31)), data: { object: 'no object' } } as never;
      await inbox.add(first, 'webhook');
      await inbox.add(second, 'webhook');
      await inbox.add(unkeyed, 'webhook');
      const leased = await store.lease({
        limit: 10,
        leaseMs: 30_000,
        now: clock,
        ordered: true,
        worker: 'w',
      });
      expect(leased.map((lease) => [lease.eventId, lease.orderingKey])).toEqual([
        [first.id, 'range_reservation:77'],
        [(unkeyed as { id: string }).id, null],
      ]);
      expect(await inbox.get(second.id)).toMatchObject({ orderingKey: 'range_reservation:77' });
      expect(await inbox.get((unkeyed as { id: string }).id)).toMatchObject({ orderingKey: null });
    },
  );

  it.skipIf(!available)(
    'leases oldest first, and never leases a suspect to a worker that holds other events',
    async () => {
      const inbox = await fresh();
      const events = [anyEvent(21, at(21)), anyEvent(22, at(22)), anyEvent(23, at(23))];
      for (const event of events) await inbox.add(event, 'feed');
      // The first event's row is rewritten (a replay): on Postgres it moves to the end of the table.
      expect(await inbox.replay(events[0]!.id)).toBe(true);
      const all = await store.lease({ limit: 3, leaseMs: 1_000, now: clock, ordered: false, worker: 'w1' });
      expect(all.map((lease) => lease.eventId)).toEqual(events.map((event) => event.id));
      // Those leases run out (their worker died): suspects. A worker holding other events leases none of them.
      clock += 2_000;
      const later = anyEvent(24, at(24));
      await inbox.add(later, 'feed');
      const busy = await store.lease({
        limit: 3,
        leaseMs: 1_000,
        now: clock,
        ordered: false,
        worker: 'w2',
        alone: false,
      });
      expect(busy.map((lease) => [lease.eventId, lease.suspect])).toEqual([[later.id, false]]);
    },
  );

  it.skipIf(!available)('keeps a renewed lease for its full length from the renewal', async () => {
    const inbox = await fresh();
    const event = anyEvent(31, at(31));
    await inbox.add(event);
    const [held] = await store.lease({ limit: 1, leaseMs: 1_000, now: clock, ordered: false, worker: 'w1' });
    expect(await store.renew(held!, 1_000, clock + 900)).toBe(true);
    clock += 1_800;
    expect((await inbox.get(event.id))?.status).toBe('processing');
    const other = await another();
    expect(await other.lease({ limit: 1, leaseMs: 1_000, now: clock, ordered: false, worker: 'w2' })).toEqual(
      [],
    );
  });

  it.skipIf(!available)(
    "ends the handler's transaction with its run: a late statement is refused, and SQL text comes first",
    async () => {
      const inbox = await fresh();
      await inbox.add(anyEvent(11, at(11)));
      let kept: InboxTransaction | undefined;
      let notText: unknown;
      let inside: unknown;
      const result = await inbox.runOnce(
        async (_event, { tx }) => {
          kept = tx;
          inside = await tx!.query<{ one: number }>('SELECT 1 AS one');
          notText = await tx!.query(42 as never).catch((caught: unknown) => caught);
        },
        { onError: quiet },
      );
      expect(result).toEqual({ done: 1, failed: 0, lost: 0 });
      expect(inside).toEqual([{ one: 1 }]);
      expect(notText).toBeInstanceOf(ShopError);
      expect((notText as Error).message).toBe('tx.query and tx.execute take SQL text first.');
      const late = await kept!.execute('SELECT 1').catch((caught: unknown) => caught);
      expect(late).toBeInstanceOf(ShopError);
      expect((late as Error).message).toBe(
        'The inbox transaction is over: use tx only while the handler runs.',
      );
    },
  );
});
