// The store's write path on list pages and refused records, through SyncStore as the engine calls it, on a
// real SQLite file and a real Postgres database: one copy per key in a page (the highest rank, the later one
// on a tie, composite keys kept apart), child rows only for the copies that won, a list read of a record
// without updated_at taken as it is, a vanished row brought back by a read that sees it; a record the
// database refuses is thrown without onRejected and reported with it, and an error that is not a refusal (a
// lost connection) is never taken for one. Written against the mutants Stryker left alive in
// src/sync/engine/store.ts (bench/mutation-report.md): each test fails with the rule it names broken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlExecutor, SyncDatabase } from '../../../src/sync/engine/database.js';
import { migrate, type RejectedRecord, SyncStore, tableNamed } from '../../../src/sync/engine/store.js';
import { DIALECTS, freshDatabase } from './support.js';

const NOW = '2026-10-05T00:00:00.000Z';

/** `tx`, except that the statements `lose` picks fail as a dropped connection does (not a refusal). */
function losing(tx: SqlExecutor, lose: (sql: string, params: readonly unknown[]) => boolean): SqlExecutor {
  const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
  return {
    all: <T>(sql: string, params: readonly unknown[] = []) =>
      lose(sql, params) ? Promise.reject(lost()) : tx.all<T>(sql, params),
    run: (sql: string, params: readonly unknown[] = []) =>
      lose(sql, params) ? Promise.reject(lost()) : tx.run(sql, params),
  };
}

function rangeClass(id: number, name: string, updatedAt = '2026-10-01T10:00:00Z') {
  return { object: 'range_class', id, location_id: 1, name, updated_at: updatedAt };
}

function reservation(id: number, updatedAt: string, lines: number) {
  return {
    object: 'range_reservation',
    id,
    location_id: 1,
    status: 'booked',
    lines: Array.from({ length: lines }, (_, index) => ({
      kind: 'retail',
      product_id: index + 1,
      description: `Item ${index + 1}`,
      quantity: 1,
      unit_cents: 100,
      total_cents: 100,
    })),
    updated_at: updatedAt,
  };
}

describe.each(DIALECTS)('the store on list pages and refused records, on $name', ({ name, available }) => {
  let db: SyncDatabase;
  let cleanup: () => Promise<void>;
  let shops = 0;
  /** A store of a shop of its own (tests do not share rows), with `rejected` told of refused records. */
  const fresh = (withRejected = true) => {
    const rejected: RejectedRecord[] = [];
    const store = new SyncStore(
      db,
      `b${++shops}`,
      withRejected ? { onRejected: (record) => rejected.push(record) } : {},
    );
    return { store, rejected, shop: store.shop };
  };
  const rows = (table: string, shop: string, columns = '*', order = '"id"') =>
    db.all<Record<string, unknown>>(`SELECT ${columns} FROM "${table}" WHERE "shop" = ? ORDER BY ${order}`, [
      shop,
    ]);

  beforeAll(async () => {
    if (!available) return;
    ({ db, cleanup } = await freshDatabase(name));
    await migrate(db);
    // The partner's own rule: a range class with id 2 is refused.
    if (name === 'postgres') {
      await db.run('ALTER TABLE "range_class" ADD CONSTRAINT "no_class_2" CHECK ("id" <> 2)');
    } else {
      for (const when of ['INSERT', 'UPDATE']) {
        await db.run(
          `CREATE TRIGGER "no_class_2_${when}" BEFORE ${when} ON "range_class" WHEN NEW."id" = 2 BEGIN SELECT RAISE(ABORT, 'class 2 refused'); END`,
        );
      }
    }
  });
  afterAll(async () => cleanup?.());

  it.skipIf(!available)('keeps the highest copy of a key in one page, the later one on a tie', async () => {
    const { store, shop } = fresh();
    const table = tableNamed('range_class');
    const written = await db.transaction((tx) =>
      store.upsert(
        tx,
        table,
        [
          rangeClass(11, 'newer', '2026-10-01T11:00:00Z'),
          rangeClass(11, 'older', '2026-10-01T10:00:00Z'),
          rangeClass(12, 'older', '2026-10-01T10:00:00Z'),
          rangeClass(12, 'newer', '2026-10-01T11:00:00Z'),
          rangeClass(13, 'first', '2026-10-01T10:00:00Z'),
          rangeClass(13, 'second', '2026-10-01T10:00:00Z'),
        ],
        'list',
        NOW,
      ),
    );
    expect(written).toBe(3);
    expect(
      (await rows('range_class', shop, '"id", "name"')).map((row) => [Number(row.id), row.name]),
    ).toEqual([
      [11, 'newer'],
      [12, 'newer'],
      [13, 'second'],
    ]);
  });

  it.skipIf(!available)('keeps the rows of a composite key apart in one page', async () => {
    const { store, shop } = fresh();
    const level = (productId: number, locationId: number, qty: number) => ({
      object: 'inventory_level',
      product_id: productId,
      location_id: locationId,
      qty_on_hand: qty,
      qty_available: qty,
      updated_at: '2026-10-01T10:00:00Z',
    });
    // "1" + "12" and "11" + "2" read the same without a separator between the key's parts.
    const written = await db.transaction((tx) =>
      store.upsert(tx, tableNamed('inventory_level'), [level(1, 12, 5), level(11, 2, 7)], 'list', NOW),
    );
    expect(written).toBe(2);
    const held = await rows('inventory_level', shop, '"product_id", "qty_available"', '"product_id"');
    expect(held.map((row) => [Number(row.product_id), Number(row.qty_available)])).toEqual([
      [1, 5],
      [11, 7],
    ]);
  });

  it.skipIf(!available)('writes child rows only for the copies of a page that won', async () => {
    const { store, shop } = fresh();
    const table = tableNamed('range_reservation');
    await db.transaction((tx) =>
      store.upsert(tx, table, [reservation(21, '2026-10-01T11:00:00Z', 1)], 'list', NOW),
    );
    // A page with an older copy of 21 (it loses: its 3 lines must not replace the held one) and a new 22.
    const written = await db.transaction((tx) =>
      store.upsert(
        tx,
        table,
        [reservation(21, '2026-10-01T10:00:00Z', 3), reservation(22, '2026-10-01T10:00:00Z', 2)],
        'list',
        NOW,
      ),
    );
    expect(written).toBe(1);
    const lines = await rows(
      'range_reservation_line',
      shop,
      '"range_reservation_id"',
      '"range_reservation_id"',
    );
    expect(lines.map((line) => Number(line.range_reservation_id))).toEqual([21, 22, 22]);
  });

  it.skipIf(!available)(
    'takes a list read of a record without updated_at as it is, whichever copy was held',
    async () => {
      const { store, shop } = fresh();
      const table = tableNamed('location');
      const read = (phone: string) =>
        db.transaction((tx) =>
          store.upsert(
            tx,
            table,
            [{ object: 'location', id: 31, phone, email: 'x@example.com' }],
            'list',
            NOW,
          ),
        );
      // Three reads, A then B then A: a rule by rank would refuse one of the two changes.
      expect(await read('555-0100')).toBe(1);
      expect(await read('555-0199')).toBe(1);
      expect((await rows('location', shop))[0]?.phone).toBe('555-0199');
      expect(await read('555-0100')).toBe(1);
      expect((await rows('location', shop))[0]?.phone).toBe('555-0100');
    },
  );

  it.skipIf(!available)(
    'brings back a row a full walk found vanished when a list read sees it again',
    async () => {
      const { store, shop } = fresh();
      const table = tableNamed('range_class');
      const copy = rangeClass(41, 'back again');
      await db.transaction((tx) => store.upsert(tx, table, [copy], 'list', NOW));
      await db.transaction(async (tx) => store.markVanished(tx, table, await store.nextWalk(tx, table), NOW));
      // The next walk does not see it: gone.
      expect(
        await db.transaction(async (tx) =>
          store.markVanished(tx, table, await store.nextWalk(tx, table), NOW),
        ),
      ).toBe(1);
      expect((await rows('range_class', shop))[0]?.deleted_at).not.toBeNull();
      // The same copy read again (same rank, same record): the row is back.
      expect(await db.transaction((tx) => store.upsert(tx, table, [copy], 'list', NOW))).toBe(1);
      expect((await rows('range_class', shop))[0]?.deleted_at).toBeNull();
    },
  );

  it.skipIf(!available)(
    'leaves a vanished row deleted when an older event copy of it comes late',
    async () => {
      const { store, shop } = fresh();
      const table = tableNamed('range_class');
      await db.transaction((tx) => store.upsert(tx, table, [rangeClass(42, 'read at ten')], 'list', NOW));
      for (let walk = 0; walk < 2; walk++) {
        await db.transaction(async (tx) =>
          store.markVanished(tx, table, await store.nextWalk(tx, table), NOW),
        );
      }
      const late = { eventId: 'evt_late', createdAt: '2026-10-01T09:00:00Z' };
      expect(
        await db.transaction((tx) =>
          store.upsert(tx, table, [rangeClass(42, 'changed at nine', '2026-10-01T09:00:00Z')], late, NOW),
        ),
      ).toBe(0);
      const held = (await rows('range_class', shop))[0];
      expect(held?.deleted_at).not.toBeNull();
      expect(held?.name).toBe('read at ten');
    },
  );

  it.skipIf(!available)('writes and deletes nothing for a composite key with a part missing', async () => {
    const { store, rejected, shop } = fresh();
    const table = tableNamed('inventory_level');
    const level = { object: 'inventory_level', product_id: 7, location_id: null, qty_available: 3 };
    const written = await db.transaction(async (tx) => [
      await store.upsert(tx, table, [level], 'list', NOW),
      await store.tombstone(tx, table, level, NOW, NOW),
    ]);
    expect(written).toEqual([0, 0]);
    expect(await rows('inventory_level', shop, '*', '"product_id"')).toEqual([]);
    // Left out before the database sees them: nothing refused.
    expect(rejected).toEqual([]);
  });

  it.skipIf(!available)(
    'reports a refused record of a page and counts the others written, in the same transaction',
    async () => {
      const { store, rejected, shop } = fresh();
      const table = tableNamed('range_class');
      const written = await db.transaction(async (tx) => {
        const count = await store.upsert(
          tx,
          table,
          [rangeClass(1, 'one'), rangeClass(2, 'two'), rangeClass(3, 'three'), rangeClass(4, 'four')],
          'list',
          NOW,
        );
        // The transaction goes on after the refusal (a savepoint, on Postgres too).
        const gone = await store.tombstone(tx, table, { object: 'range_class', id: 2 }, NOW, NOW);
        return [count, gone];
      });
      expect(written).toEqual([3, 0]);
      expect(rejected.map((record) => [record.table, record.key])).toEqual([
        ['range_class', 'id=2'],
        ['range_class', 'id=2'],
      ]);
      expect((await rows('range_class', shop, '"id"')).map((row) => Number(row.id))).toEqual([1, 3, 4]);
    },
  );

  it.skipIf(!available)(
    'writes a page past one batch once, and reports its refused record once',
    async () => {
      const { store, rejected, shop } = fresh();
      const table = tableNamed('range_class');
      // 150 records: two batches of the store's 100; class 2 is refused.
      const page = Array.from({ length: 150 }, (_, index) => rangeClass(index + 1, `class ${index + 1}`));
      expect(await db.transaction((tx) => store.upsert(tx, table, page, 'list', NOW))).toBe(149);
      expect(rejected.map((record) => record.key)).toEqual(['id=2']);
      expect(await rows('range_class', shop, '"id"')).toHaveLength(149);
    },
  );

  it.skipIf(!available)('throws a refused record when no one is told of refusals', async () => {
    const { store, shop } = fresh(false);
    const table = tableNamed('range_class');
    await expect(
      db.transaction((tx) =>
        store.upsert(tx, table, [rangeClass(1, 'one'), rangeClass(2, 'two')], 'list', NOW),
      ),
    ).rejects.toThrow(/refused|no_class_2|check constraint/);
    await expect(
      db.transaction((tx) => store.tombstone(tx, table, { object: 'range_class', id: 2 }, NOW, NOW)),
    ).rejects.toThrow(/refused|no_class_2|check constraint/);
    expect(await rows('range_class', shop)).toEqual([]);
  });

  it.skipIf(!available)('never takes a lost connection for a refused record', async () => {
    const table = tableNamed('range_class');
    const insert = (sql: string) => sql.startsWith('INSERT INTO "range_class"');

    // The page's first write is lost: thrown, not retried record by record.
    const first = fresh();
    let writes = 0;
    await expect(
      db.transaction((tx) =>
        first.store.upsert(
          losing(tx, (sql) => insert(sql) && ++writes === 1),
          table,
          [rangeClass(1, 'one'), rangeClass(3, 'three')],
          'list',
          NOW,
        ),
      ),
    ).rejects.toThrow('Connection terminated unexpectedly');
    expect(writes).toBe(1);

    // The page is refused (class 2), then the retry of class 3 on its own is lost: thrown, not reported.
    const second = fresh();
    await expect(
      db.transaction((tx) =>
        second.store.upsert(
          losing(tx, (sql, params) => insert(sql) && params[1] === 3),
          table,
          [rangeClass(1, 'one'), rangeClass(2, 'two'), rangeClass(3, 'three')],
          'list',
          NOW,
        ),
      ),
    ).rejects.toThrow('Connection terminated unexpectedly');
    expect(second.rejected.map((record) => record.key)).toEqual(['id=2']);

    // A deletion whose write is lost: thrown, not reported.
    const third = fresh();
    await expect(
      db.transaction((tx) =>
        third.store.tombstone(losing(tx, insert), table, { object: 'range_class', id: 5 }, NOW, NOW),
      ),
    ).rejects.toThrow('Connection terminated unexpectedly');
    expect(third.rejected).toEqual([]);
  });
});
