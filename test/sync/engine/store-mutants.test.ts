// The engine's write rules as a partner reaches them (ShopSync.applyEvent), on a real SQLite file and a real
// Postgres database: typed columns hold only values of their type (the record keeps the rest), a record
// without its key writes nothing, a deletion of a record without its key writes nothing, child rows are
// replaced as a whole and kept in order past one batch. Written against the mutants Stryker left alive in
// src/sync/engine/store.ts (bench/mutation-report.md): each test fails with the rule it names broken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopClient } from '../../../src/client.js';
import type { SyncDatabase } from '../../../src/sync/engine/database.js';
import { ShopSync } from '../../../src/sync/engine/shop-sync.js';
import { DIALECTS, freshDatabase } from './support.js';

let sequence = 0;
function event(type: string, object: Record<string, unknown>, createdAt = '2026-10-01T10:00:00Z') {
  return { id: `evt_store_${++sequence}`, type, created_at: createdAt, data: { object } };
}

describe.each(DIALECTS)('the store through ShopSync on $name', ({ name, available }) => {
  let db: SyncDatabase;
  let cleanup: () => Promise<void>;
  let sync: ShopSync;
  /** The gaps ShopSync reported (a record the database refused is one). */
  const gaps: { reason: string; detail: string }[] = [];
  const row = async (table: string, where: string, params: unknown[]) =>
    (
      await db.all<Record<string, unknown>>(`SELECT * FROM "${table}" WHERE "shop" = ? AND ${where}`, [
        'm1',
        ...params,
      ])
    )[0];
  const recordOf = (value: Record<string, unknown> | undefined) =>
    value && (typeof value.record === 'string' ? JSON.parse(value.record) : value.record);

  beforeAll(async () => {
    if (!available) return;
    ({ db, cleanup } = await freshDatabase(name));
    // No call reaches the API: applyEvent writes what it is given.
    const client = new ShopClient({ apiKey: 'sk_test_unused', baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    sync = new ShopSync({ client, db, shop: 'm1', onGap: (gap) => gaps.push(gap) });
  });
  afterAll(async () => cleanup?.());

  it.skipIf(!available)(
    'fills typed columns with values of their type only; the record keeps them all',
    async () => {
      const product = {
        object: 'product',
        id: 31,
        name: 'Case\u0000 \ud800',
        sku: 'C-31',
        vendor_id: 3.5,
        is_firearm: true,
        is_serialized: 'yes',
        is_nfa: false,
        updated_at: '2026-10-01T10:00:00Z',
      };
      expect(await sync.applyEvent(event('product.updated', product))).toBe(1);
      const held = await row('product', '"id" = ?', [31]);
      expect(held?.name).toBe('Case\ufffd \ufffd');
      expect(held?.sku).toBe('C-31');
      expect(held?.vendor_id).toBeNull();
      expect([true, 1]).toContain(held?.is_firearm);
      expect([false, 0]).toContain(held?.is_nfa);
      expect(held?.is_serialized).toBeNull();
      expect(recordOf(held)).toMatchObject({
        vendor_id: 3.5,
        is_serialized: 'yes',
        sku: 'C-31',
      });

      await sync.applyEvent(
        event('product.updated', { ...product, vendor_id: 4, sku: 7, updated_at: '2026-10-01T11:00:00Z' }),
      );
      const next = await row('product', '"id" = ?', [31]);
      expect(Number(next?.vendor_id)).toBe(4);
      expect(next?.sku).toBeNull();

      const customer = (id: number, dateOfBirth: unknown) => ({
        object: 'customer',
        id,
        email: `c${id}@example.com`,
        date_of_birth: dateOfBirth,
        updated_at: '2026-10-01T10:00:00Z',
      });
      await sync.applyEvent(event('customer.updated', customer(41, '1990-01-02')));
      await sync.applyEvent(event('customer.updated', customer(42, '1990-1-2')));
      await sync.applyEvent(event('customer.updated', customer(43, 19900102)));
      const born = async (id: number) => {
        const value = (await row('customer', '"id" = ?', [id]))?.date_of_birth;
        return value instanceof Date ? value.toISOString().slice(0, 10) : value;
      };
      expect(await born(41)).toBe('1990-01-02');
      expect(await born(42)).toBeNull();
      expect(await born(43)).toBeNull();

      const reservation = {
        object: 'range_reservation',
        id: 51,
        location_id: 1,
        status: 'booked',
        starts_at: 'soon',
        ends_at: '2026-10-02T11:00:00Z',
        lines: [],
        updated_at: '2026-10-01T10:00:00Z',
      };
      await sync.applyEvent(event('range.reservation.booked', reservation));
      const booked = await row('range_reservation', '"id" = ?', [51]);
      expect(booked?.starts_at).toBeNull();
      expect(new Date(booked?.ends_at as string).toISOString()).toBe('2026-10-02T11:00:00.000Z');
    },
  );

  it.skipIf(!available)('writes nothing for a record or a deletion without its key', async () => {
    expect(await sync.applyEvent(event('product.updated', { object: 'product', name: 'no id' }))).toBe(0);
    expect(await sync.applyEvent(event('product.deleted', { object: 'product', deleted: true }))).toBe(0);
    expect(await sync.applyEvent(event('customer.deleted', { object: 'customer', id: null }))).toBe(0);
    const rows = await db.all('SELECT * FROM "product" WHERE "shop" = ? AND "id" IS NULL', ['m1']);
    expect(rows).toEqual([]);
    // Left out before the database sees them: nothing was refused.
    expect(gaps).toEqual([]);
  });

  it.skipIf(!available)('marks a deletion at the time of its event', async () => {
    await sync.applyEvent(
      event('product.deleted', { object: 'product', id: 91, deleted: true }, '2026-10-03T04:05:06Z'),
    );
    const held = await row('product', '"id" = ?', [91]);
    expect(new Date(held?.deleted_at as string).toISOString()).toBe('2026-10-03T04:05:06.000Z');
    expect(gaps).toEqual([]);
  });

  it.skipIf(!available)(
    "replaces a reservation's lines as a whole, in order, past 100 lines, and only when the copy wins",
    async () => {
      const line = (n: number) => ({
        kind: 'retail',
        resource_id: null,
        product_id: n,
        description: `Item ${n}`,
        quantity: 1,
        unit_cents: n,
        total_cents: n,
      });
      const reservation = (updatedAt: string, count: number) => ({
        object: 'range_reservation',
        id: 61,
        location_id: 1,
        status: 'booked',
        lines: Array.from({ length: count }, (_, index) => line(index + 1)),
        updated_at: updatedAt,
      });
      const lines = async () =>
        (
          await db.all<Record<string, unknown>>(
            'SELECT "position", "product_id" FROM "range_reservation_line" WHERE "shop" = ? AND "range_reservation_id" = ? ORDER BY "position"',
            ['m1', 61],
          )
        ).map((held) => [Number(held.position), Number(held.product_id)]);
      expect(
        await sync.applyEvent(event('range.reservation.booked', reservation('2026-10-01T10:00:00Z', 150))),
      ).toBe(1);
      const first = await lines();
      expect(first).toHaveLength(150);
      expect(first[0]).toEqual([0, 1]);
      expect(first[149]).toEqual([149, 150]);
      // An older copy loses: its lines are not written.
      expect(
        await sync.applyEvent(event('range.reservation.booked', reservation('2026-10-01T09:00:00Z', 2))),
      ).toBe(0);
      expect(await lines()).toHaveLength(150);
      // A newer copy wins: its lines replace all of the old ones.
      expect(
        await sync.applyEvent(event('range.reservation.booked', reservation('2026-10-01T11:00:00Z', 2))),
      ).toBe(1);
      expect(await lines()).toEqual([
        [0, 1],
        [1, 2],
      ]);
    },
  );
  it.skipIf(!available)(
    'writes nothing for an event without a table or without an object, and the checkout a returned gun carries',
    async () => {
      expect(await sync.applyEvent(event('ping', { object: 'ping', id: 1 }))).toBe(0);
      expect(await sync.applyEvent(event('order.created', { object: 'order', id: 2 }))).toBe(0);
      expect(
        await sync.applyEvent({
          id: 'evt_store_nodata',
          type: 'product.updated',
          created_at: '2026-10-01T10:00:00Z',
        } as never),
      ).toBe(0);
      expect(await sync.applyEvent(event('product.updated', null as never))).toBe(0);
      expect(await sync.applyEvent(event('product.updated', 'product 5' as never))).toBe(0);
      const gun = {
        object: 'range_rental',
        id: 71,
        location_id: 1,
        status: 'available',
        checkout: null,
        updated_at: '2026-10-01T10:00:00Z',
      };
      const checkout = {
        object: 'range_rental_checkout',
        id: 81,
        rental_id: 71,
        location_id: 1,
        customer_id: 5,
        checked_out_at: '2026-10-01T09:00:00Z',
        checked_in_at: '2026-10-01T10:00:00Z',
        condition_in: 'Good',
      };
      expect(
        await sync.applyEvent(event('range.rental.checked_in', { ...gun, last_checkout: checkout })),
      ).toBe(2);
      expect(recordOf(await row('range_rental_checkout', '"id" = ?', [81])).condition_in).toBe('Good');
      expect(
        await sync.applyEvent(
          event('range.rental.checked_in', {
            ...gun,
            id: 72,
            last_checkout: null,
            updated_at: '2026-10-01T11:00:00Z',
          }),
        ),
      ).toBe(1);
      expect(recordOf(await row('range_rental', '"id" = ?', [72]))).not.toHaveProperty('last_checkout');
    },
  );
});
