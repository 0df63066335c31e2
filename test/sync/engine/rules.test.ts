// The reference's rules (section 6) as the engine applies them, on a real SQLite file and a real Postgres
// database: newer-or-equal replaces, ties resolved the same whichever copy comes first, stock from
// qty_available, a reduced customer never overwrites a full one, records without updated_at inserted once,
// deletes kept as deleted_at; and the schema's forward-only migrations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_MIGRATIONS } from '../../../src/generated/sync-schema.js';
import { applyEvent, type SyncEvent } from '../../../src/sync/engine/apply-event.js';
import type { SyncDatabase } from '../../../src/sync/engine/database.js';
import { ShopSync } from '../../../src/sync/engine/shop-sync.js';
import { migrate, SyncStore, tableNamed } from '../../../src/sync/engine/store.js';
import { compareWithApi, DIALECTS, freshDatabase, servedSandbox, totals } from './support.js';

let sequence = 0;
function event(type: string, object: Record<string, unknown>, createdAt = '2026-10-01T10:00:00Z'): SyncEvent {
  return { id: `evt_${++sequence}`, type, created_at: createdAt, data: { object } };
}

function reservation(id: number, updatedAt: string, extra: Record<string, unknown> = {}) {
  return {
    object: 'range_reservation',
    id,
    location_id: 1,
    status: 'booked',
    paid_cents: 2500,
    starts_at: '2026-10-02T10:00:00Z',
    lines: [
      {
        kind: 'lane_time',
        resource_id: 3,
        product_id: null,
        description: 'Lane 3',
        quantity: 1,
        unit_cents: 2500,
        total_cents: 2500,
      },
    ],
    updated_at: updatedAt,
    ...extra,
  };
}

describe.each(DIALECTS)('sync rules on $name', ({ name, available }) => {
  let db: SyncDatabase;
  let cleanup: () => Promise<void>;
  let store: SyncStore;
  const apply = (...events: SyncEvent[]) =>
    db.transaction(async (tx) => {
      let written = 0;
      for (const item of events) written += await applyEvent(store, tx, item, new Date().toISOString());
      return written;
    });
  const row = async (table: string, where: string, params: unknown[]) =>
    (
      await db.all<Record<string, unknown>>(`SELECT * FROM "${table}" WHERE "shop" = ? AND ${where}`, [
        's1',
        ...params,
      ])
    )[0];
  const recordOf = (value: Record<string, unknown> | undefined) =>
    value && (typeof value.record === 'string' ? JSON.parse(value.record) : value.record);

  beforeAll(async () => {
    if (!available) return;
    ({ db, cleanup } = await freshDatabase(name));
    await migrate(db);
    store = new SyncStore(db, 's1');
  });
  afterAll(async () => cleanup?.());

  it.skipIf(!available)(
    'keeps the newest copy whatever order the events come in, typed columns included',
    async () => {
      const older = event('range.reservation.booked', reservation(1, '2026-10-01T10:00:00Z'));
      const newer = event(
        'range.reservation.cancelled',
        reservation(1, '2026-10-01T11:00:00.000Z', { status: 'cancelled', lines: [] }),
      );
      expect(await apply(newer)).toBe(1);
      expect(await apply(older, older)).toBe(0);
      const held = await row('range_reservation', '"id" = ?', [1]);
      expect(held?.status).toBe('cancelled');
      expect(Number(held?.paid_cents)).toBe(2500);
      expect(new Date(held?.updated_at as string).toISOString()).toBe('2026-10-01T11:00:00.000Z');
      // Child rows follow the copy that won: the cancelled copy has no lines.
      expect(
        await db.all(
          'SELECT * FROM "range_reservation_line" WHERE "shop" = ? AND "range_reservation_id" = ?',
          ['s1', 1],
        ),
      ).toHaveLength(0);
    },
  );

  it.skipIf(!available)(
    'resolves two states with one updated_at by the later event whichever arrives first, and a list read over both',
    async () => {
      // Two changes with one updated_at: checked in, then (the later event) marked no-show.
      const a = event(
        'range.reservation.checked_in',
        reservation(2, '2026-10-01T12:00:00Z', { status: 'checked_in' }),
        '2026-10-01T12:00:00.000Z',
      );
      const b = event(
        'range.reservation.no_show',
        reservation(2, '2026-10-01T12:00:00Z', { status: 'no_show' }),
        '2026-10-01T12:00:00.001Z',
      );
      await apply(a, b);
      expect(recordOf(await row('range_reservation', '"id" = ?', [2])).status).toBe('no_show');
      await db.run('DELETE FROM "range_reservation" WHERE "shop" = ? AND "id" = ?', ['s1', 2]);
      await apply(b, a);
      expect(recordOf(await row('range_reservation', '"id" = ?', [2])).status).toBe('no_show');
      // A list read of that instant is the state after every change of it: it wins over either snapshot.
      const read = reservation(2, '2026-10-01T12:00:00Z', {
        status: 'no_show',
        no_show_at: '2026-10-01T12:00:00Z',
      });
      await db.transaction((tx) =>
        store.upsert(tx, tableNamed('range_reservation'), [read], 'list', new Date().toISOString()),
      );
      await apply(b, a);
      expect(recordOf(await row('range_reservation', '"id" = ?', [2])).no_show_at).toBe(
        '2026-10-01T12:00:00Z',
      );
    },
  );

  it.skipIf(!available)("writes a reservation's lines as child rows", async () => {
    await apply(event('range.reservation.booked', reservation(3, '2026-10-01T10:00:00Z')));
    const lines = await db.all<Record<string, unknown>>(
      'SELECT * FROM "range_reservation_line" WHERE "shop" = ? AND "range_reservation_id" = ?',
      ['s1', 3],
    );
    expect(lines.map((line) => [line.kind, Number(line.total_cents)])).toEqual([['lane_time', 2500]]);
  });

  it.skipIf(!available)(
    'sets stock to qty_available, never adds qty_delta, and skips an older level',
    async () => {
      const level = (qty: number, delta: number, at: string) => ({
        object: 'inventory_level',
        product_id: 7,
        location_id: 1,
        qty_on_hand: qty,
        qty_reserved: 0,
        qty_available: qty,
        reorder_point: 2,
        bin_location: 'A1',
        updated_at: at,
        sku: 'SKU7',
        name: 'Box',
        qty_delta: delta,
        reason: 'sale',
      });
      await apply(event('inventory.changed', level(9, -1, '2026-10-01T10:00:02Z')));
      await apply(event('inventory.changed', level(10, -1, '2026-10-01T10:00:01Z')));
      await apply(event('inventory.changed', level(9, -1, '2026-10-01T10:00:02Z')));
      const held = await row('inventory_level', '"product_id" = ? AND "location_id" = ?', [7, 1]);
      expect(Number(held?.qty_available)).toBe(9);
      expect(recordOf(held)).not.toHaveProperty('qty_delta');
    },
  );

  it.skipIf(!available)(
    "keeps a product's embedded stock at the newest level, whichever of the product and the level comes last",
    async () => {
      const level = (location: number, qty: number, at: string) => ({
        object: 'inventory_level',
        product_id: 21,
        location_id: location,
        qty_on_hand: qty,
        qty_reserved: 0,
        qty_available: qty,
        reorder_point: 2,
        bin_location: 'B2',
        updated_at: at,
      });
      const product = {
        object: 'product',
        id: 21,
        name: 'Earmuffs',
        sku: 'EAR-21',
        inventory: [level(1, 10, '2026-10-01T09:00:00.000Z'), level(2, 4, '2026-10-01T09:00:00.000Z')],
      };
      const change = (location: number, qty: number, at: string) =>
        event('inventory.changed', {
          ...level(location, qty, at),
          sku: 'EAR-21',
          name: 'Earmuffs',
          qty_delta: -1,
          reason: 'sale',
        });
      const embedded = async () =>
        (recordOf(await row('product', '"id" = ?', [21])) as typeof product).inventory.map((entry) => [
          entry.location_id,
          entry.qty_available,
        ]);
      await apply(event('product.updated', product));
      await apply(change(2, 3, '2026-10-01T10:00:00.000Z'));
      expect(await embedded()).toEqual([
        [1, 10],
        [2, 3],
      ]);
      // A stock change at a location the product's copy did not list adds it; an older one changes nothing.
      await apply(change(3, 7, '2026-10-01T10:00:00.000Z'), change(1, 99, '2026-10-01T08:00:00.000Z'));
      expect(await embedded()).toEqual([
        [1, 10],
        [2, 3],
        [3, 7],
      ]);
      // A product copy with older stock (a late event, a list read before the change) takes the newer levels.
      await apply(event('product.updated', { ...product, name: 'Earmuffs, pair' }));
      expect(recordOf(await row('product', '"id" = ?', [21])).name).toBe('Earmuffs, pair');
      expect(await embedded()).toEqual([
        [1, 10],
        [2, 3],
        [3, 7],
      ]);
      // The level's own row is the event's level without the fields the event adds.
      expect(recordOf(await row('product', '"id" = ?', [21])).inventory[1]).toEqual(
        level(2, 3, '2026-10-01T10:00:00.000Z'),
      );
    },
  );

  it.skipIf(!available)(
    'never lets a customer reduced to {object, id} overwrite a fuller copy, in either order',
    async () => {
      const full = {
        object: 'customer',
        id: 5,
        email: 'a@example.com',
        first_name: 'Ann',
        last_name: 'Lee',
        phone: null,
      };
      await apply(event('customer.updated', full), event('customer.updated', { object: 'customer', id: 5 }));
      expect(recordOf(await row('customer', '"id" = ?', [5])).email).toBe('a@example.com');
      await apply(
        event('customer.created', { object: 'customer', id: 6 }),
        event('customer.updated', { ...full, id: 6 }),
      );
      expect(recordOf(await row('customer', '"id" = ?', [6])).first_name).toBe('Ann');
    },
  );

  it.skipIf(!available)('inserts a record without updated_at once', async () => {
    const ret = {
      object: 'return',
      id: 4,
      number: 'R-4',
      total_cents: 100,
      lines: [],
      created_at: '2026-10-01T10:00:00Z',
    };
    expect(await apply(event('return.created', ret))).toBe(1);
    expect(await apply(event('return.created', ret))).toBe(0);
  });

  it.skipIf(!available)(
    'stores a returned gun and the checkout it carries, the closed checkout over the open one',
    async () => {
      const checkout = {
        object: 'range_rental_checkout',
        id: 8,
        rental_id: 2,
        location_id: 1,
        customer_id: 5,
        checked_out_at: '2026-10-01T09:00:00Z',
        checked_in_at: null,
        condition_in: null,
      };
      const closed = { ...checkout, checked_in_at: '2026-10-01T10:00:00Z', condition_in: 'Good' };
      const gun = {
        object: 'range_rental',
        id: 2,
        location_id: 1,
        status: 'available',
        checkout: null,
        updated_at: '2026-10-01T10:00:00Z',
      };
      await apply(event('range.rental.checked_in', { ...gun, last_checkout: closed }));
      await db.transaction((tx) =>
        store.upsert(
          tx,
          tableNamed('range_rental_checkout'),
          [checkout],
          { eventId: 'evt_late', createdAt: '2026-10-01T09:00:00Z' },
          new Date().toISOString(),
        ),
      );
      expect(recordOf(await row('range_rental_checkout', '"id" = ?', [8])).condition_in).toBe('Good');
      expect(recordOf(await row('range_rental', '"id" = ?', [2]))).not.toHaveProperty('last_checkout');
    },
  );

  it.skipIf(!available)(
    'marks deletes with deleted_at, and an older copy does not bring the record back',
    async () => {
      const product = {
        object: 'product',
        id: 11,
        name: 'Target',
        sku: 'T-11',
        updated_at: '2026-10-01T09:00:00Z',
      };
      await apply(event('product.updated', product));
      await apply(
        event(
          'product.deleted',
          { object: 'product', id: 11, deleted: true, sku: 'T-11' },
          '2026-10-01T10:00:00Z',
        ),
      );
      await apply(event('product.updated', product));
      expect((await row('product', '"id" = ?', [11]))?.deleted_at).not.toBeNull();
      // A deletion that arrives before any copy is kept as a tombstone.
      await apply(
        event('customer.deleted', { object: 'customer', id: 12, deleted: true }, '2026-10-01T10:00:00Z'),
      );
      await apply(event('customer.updated', { object: 'customer', id: 12, email: 'x@example.com' }));
      expect((await row('customer', '"id" = ?', [12]))?.deleted_at).not.toBeNull();
    },
  );

  it.skipIf(!available)('keeps shops apart in one database', async () => {
    const other = new SyncStore(db, 's2');
    await db.transaction((tx) =>
      other.upsert(
        tx,
        tableNamed('range_reservation'),
        [reservation(1, '2026-09-01T00:00:00Z')],
        'list',
        new Date().toISOString(),
      ),
    );
    expect(recordOf(await row('range_reservation', '"id" = ?', [1])).status).toBe('cancelled');
    expect(await other.records(tableNamed('range_reservation'))).toHaveLength(1);
  });
});

describe.each(DIALECTS)('sync schema migrations on $name', ({ name, available }) => {
  it.skipIf(!available)(
    'upgrades a database of the first schema version, keeping its rows, and refuses a newer one',
    async () => {
      const { db, cleanup } = await freshDatabase(name);
      try {
        const first = SYNC_MIGRATIONS.filter((migration) => migration.version === 1);
        expect(await migrate(db, first)).toEqual({ from: 0, to: 1 });
        // A row as the first version's engine wrote it.
        await db.run(
          'INSERT INTO "range_reservation" ("shop", "id", "status", "record", "sync_version", "synced_at") VALUES (?, ?, ?, ?, ?, ?)',
          [
            's1',
            1,
            'booked',
            JSON.stringify(reservation(1, '2026-10-01T10:00:00Z')),
            '2026-10-01T10:00:00.000Z|2',
            new Date().toISOString(),
          ],
        );
        // A later version as the generator writes one when the spec gains a field (ADD COLUMN only).
        const latest = SYNC_MIGRATIONS.at(-1)!.version;
        const second = {
          version: latest + 1,
          sqlite: ['ALTER TABLE "range_reservation" ADD COLUMN "lane_label" TEXT'],
          postgres: ['ALTER TABLE "range_reservation" ADD COLUMN "lane_label" TEXT'],
        };
        expect(await migrate(db, [...SYNC_MIGRATIONS, second])).toEqual({ from: 1, to: latest + 1 });
        expect(await migrate(db, [...SYNC_MIGRATIONS, second])).toEqual({
          from: latest + 1,
          to: latest + 1,
        });
        const rows = await db.all<Record<string, unknown>>(
          'SELECT "status", "lane_label" FROM "range_reservation" WHERE "shop" = ?',
          ['s1'],
        );
        expect(rows).toEqual([{ status: 'booked', lane_label: null }]);
        await expect(migrate(db, first)).rejects.toThrow(
          new RegExp(`version ${latest + 1}, newer than this SDK's 1`),
        );
      } finally {
        await cleanup();
      }
    },
  );
});

describe.each(DIALECTS)('stock changes on $name', ({ name, available }) => {
  it.skipIf(!available)(
    "a product read with its inventory follows inventory.changed: its copy equals the API's after the feed",
    async () => {
      const shop = await servedSandbox({ now: '2026-10-01T12:00:00Z' });
      const { db, cleanup } = await freshDatabase(name);
      try {
        shop.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });
        const sync = new ShopSync({ client: shop.client, db, shop: 'stock' });
        await sync.runOnce();
        shop.sandbox.clock.advance('1m');
        await shop.client.inventory.adjust({
          sku: 'AMMO-FED-9MM-50',
          location_id: 1,
          qty_delta: -3,
          reason: 'count',
        });
        const feed = await sync.catchUp();
        expect(feed.written).toBeGreaterThan(0);
        const stock = (await compareWithApi(shop.client, db, 'stock')).filter((row) =>
          ['product', 'inventory_level'].includes(row.table),
        );
        expect(stock.map((row) => row.table)).toEqual(['product', 'inventory_level']);
        expect(totals(stock)).toMatchObject({ lost: 0, stale: 0, extra: 0 });
      } finally {
        await cleanup();
        await shop.close();
      }
    },
    60_000,
  );
});
