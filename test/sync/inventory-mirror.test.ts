import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ShopError } from '../../src/core/errors/shop-error.js';
import { InventoryMirror, MemoryInventoryStore } from '../../src/sync/index.js';
import { compareTimestamps } from '../../src/sync/timestamps.js';
import type { ShopEvent } from '../../src/webhooks/index.js';
import { type FakeLevel, fakeApi, makeEvent } from './fake-api.js';

const { state, client } = fakeApi();
beforeEach(() => {
  state.levels = [];
  state.queries = [];
  state.inventoryFailures = 0;
});

function level(productId: number, locationId: number, qtyAvailable: number, updatedAt: string): FakeLevel {
  return {
    object: 'inventory_level',
    product_id: productId,
    location_id: locationId,
    qty_on_hand: qtyAvailable + 1,
    qty_reserved: 1,
    qty_available: qtyAvailable,
    reorder_point: 5,
    bin_location: 'A-1',
    updated_at: updatedAt,
  };
}

let n = 0;
function changed(value: FakeLevel, qtyDelta = 1, reason = 'sale'): ShopEvent {
  n++;
  const event = makeEvent(n, value.updated_at, 'inventory.changed');
  event.data.object = { ...value, sku: `SKU-${value.product_id}`, name: 'Item', qty_delta: qtyDelta, reason };
  return event as unknown as ShopEvent;
}

describe('InventoryMirror.applyEvent', () => {
  it('sets stock to qty_available and never adds qty_delta', async () => {
    const mirror = new InventoryMirror();
    await mirror.applyEvent(changed(level(1, 3, 10, '2026-09-24T10:00:00Z')));
    expect(await mirror.applyEvent(changed(level(1, 3, 7, '2026-09-24T10:01:00Z'), -3))).toBe('applied');
    // A duplicate of the same event changes nothing (adding its delta would give 4).
    expect(await mirror.applyEvent(changed(level(1, 3, 7, '2026-09-24T10:01:00Z'), -3))).toBe('applied');
    expect(await mirror.store.get(1, 3)).toEqual({
      product_id: 1,
      location_id: 3,
      qty_available: 7,
      qty_on_hand: 8,
      qty_reserved: 1,
      updated_at: '2026-09-24T10:01:00Z',
    });
  });

  it('applies a hold (qty_delta 0) by its qty_available', async () => {
    const mirror = new InventoryMirror();
    await mirror.applyEvent(changed(level(9, 1, 2, '2026-09-24T10:00:00Z')));
    await mirror.applyEvent(changed(level(9, 1, 1, '2026-09-24T10:00:01Z'), 0, 'hold'));
    expect((await mirror.store.get(9, 1))?.qty_available).toBe(1);
  });

  it('skips an event older than the level held, per product and location', async () => {
    const mirror = new InventoryMirror();
    await mirror.applyEvent(changed(level(1, 3, 5, '2026-09-24T10:05:00Z')));
    expect(await mirror.applyEvent(changed(level(1, 3, 9, '2026-09-24T10:04:59Z')))).toBe('stale');
    expect(await mirror.applyEvent(changed(level(1, 4, 9, '2026-09-24T10:04:59Z')))).toBe('applied');
    expect(await mirror.applyEvent(changed(level(2, 3, 9, '2026-09-24T10:04:59Z')))).toBe('applied');
    expect((await mirror.store.get(1, 3))?.qty_available).toBe(5);
  });

  it('orders timestamps beyond the millisecond', async () => {
    const mirror = new InventoryMirror();
    await mirror.applyEvent(changed(level(1, 1, 5, '2026-09-24T10:00:00.000002Z')));
    expect(await mirror.applyEvent(changed(level(1, 1, 6, '2026-09-24T10:00:00.000001Z')))).toBe('stale');
    expect((await mirror.store.get(1, 1))?.qty_available).toBe(5);
  });

  it('ignores other event types and refuses a payload it cannot order', async () => {
    const mirror = new InventoryMirror();
    expect(await mirror.applyEvent(makeEvent(1, '2026-09-24T10:00:00Z') as unknown as ShopEvent)).toBe(
      'ignored',
    );
    const broken = changed(level(1, 1, 5, '2026-09-24T10:00:00Z'));
    (broken.data.object as Record<string, unknown>).updated_at = 'yesterday';
    expect(await mirror.applyEvent(broken)).toBe('invalid');
    expect(await mirror.store.get(1, 1)).toBeUndefined();
  });
});

describe('InventoryMirror over a shuffled stream', () => {
  // Per product and location, a history of levels with strictly increasing updated_at (some within one
  // millisecond); the stream holds every change, duplicates, in any order.
  const history = fc
    .array(
      fc.record({
        product: fc.integer({ min: 1, max: 4 }),
        location: fc.integer({ min: 1, max: 3 }),
        qty: fc.integer({ min: 0, max: 500 }),
        step: fc.constantFrom(1, 250, 1000, 60_000),
      }),
      { minLength: 1, maxLength: 60 },
    )
    .map((changes) => {
      const clocks = new Map<string, number>();
      return changes.map(({ product, location, qty, step }, index) => {
        const key = `${product}:${location}`;
        const micros = (clocks.get(key) ?? 0) + step;
        clocks.set(key, micros);
        const base = Date.parse('2026-09-24T10:00:00Z') + Math.floor(micros / 1000);
        const iso = new Date(base).toISOString().replace('Z', `${String(micros % 1000).padStart(3, '0')}Z`);
        return { index, value: level(product, location, qty, iso) };
      });
    });

  function truth(changes: { value: FakeLevel }[]): Map<string, number> {
    const latest = new Map<string, FakeLevel>();
    for (const { value } of changes) {
      const key = `${value.product_id}:${value.location_id}`;
      const held = latest.get(key);
      if (!held || compareTimestamps(value.updated_at, held.updated_at) > 0) latest.set(key, value);
    }
    return new Map([...latest].map(([key, value]) => [key, value.qty_available]));
  }

  function held(store: MemoryInventoryStore): Map<string, number> {
    return new Map(
      store.levels().map((value) => [`${value.product_id}:${value.location_id}`, value.qty_available]),
    );
  }

  it('ends equal to the true levels, applied one by one', async () => {
    await fc.assert(
      fc.asyncProperty(
        history.chain((changes) =>
          fc.tuple(
            fc.constant(changes),
            fc.shuffledSubarray([...changes, ...changes], { minLength: 2 * changes.length }),
          ),
        ),
        async ([changes, stream]) => {
          const store = new MemoryInventoryStore();
          const mirror = new InventoryMirror({ store });
          for (const { value } of stream) await mirror.applyEvent(changed(value));
          expect(held(store)).toEqual(truth(changes));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('ends equal to the true levels when every event is applied at once (concurrent deliveries)', async () => {
    await fc.assert(
      fc.asyncProperty(
        history.chain((changes) =>
          fc.tuple(
            fc.constant(changes),
            fc.shuffledSubarray([...changes, ...changes], { minLength: 2 * changes.length }),
          ),
        ),
        async ([changes, stream]) => {
          const store = new MemoryInventoryStore();
          // A store that yields between read and write, as a database would.
          const slow = {
            get: async (p: number, l: number) => {
              await new Promise((resolve) => setImmediate(resolve));
              return store.get(p, l);
            },
            set: async (value: Parameters<MemoryInventoryStore['set']>[0]) => {
              await new Promise((resolve) => setImmediate(resolve));
              store.set(value);
            },
          };
          const mirror = new InventoryMirror({ store: slow });
          await Promise.all(stream.map(({ value }) => mirror.applyEvent(changed(value))));
          expect(held(store)).toEqual(truth(changes));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('InventoryMirror.reconcile', () => {
  it('pulls GET /v1/inventory?updated_since, repairs missed levels and keeps newer ones', async () => {
    const mirror = new InventoryMirror();
    await mirror.applyEvent(changed(level(1, 1, 50, '2026-09-24T12:00:00Z')));
    await mirror.applyEvent(changed(level(2, 1, 8, '2026-09-24T09:00:00Z')));
    state.levels = [
      level(1, 1, 40, '2026-09-24T11:00:00Z'), // older than the event already applied: kept at 50
      level(2, 1, 3, '2026-09-24T11:30:00Z'), // an event was missed: repaired to 3
      level(3, 2, 12, '2026-09-24T10:00:00Z'), // never seen: added
    ];
    const result = await mirror.reconcile(client, { since: new Date('2026-09-24T08:00:00Z') });
    expect(state.queries[0]).toEqual({
      path: '/v1/inventory',
      query: { updated_since: '2026-09-24T08:00:00.000Z' },
    });
    expect(result).toEqual({ applied: 2, stale: 1, invalid: 0, latestUpdatedAt: '2026-09-24T11:30:00Z' });
    expect((await mirror.store.get(1, 1))?.qty_available).toBe(50);
    expect((await mirror.store.get(2, 1))?.qty_available).toBe(3);
    expect((await mirror.store.get(3, 2))?.qty_available).toBe(12);
  });
});

describe('InventoryMirror.startReconciling', () => {
  it('reconciles now and after each run, carrying since forward; a failed run goes to onError and polling goes on', async () => {
    const T_A = '2026-09-24T10:00:00Z';
    const T_B = '2026-09-24T10:30:00Z';
    state.levels = [level(1, 1, 5, T_A)];
    state.inventoryFailures = 1;
    const mirror = new InventoryMirror();
    const errors: unknown[] = [];
    const poller = mirror.startReconciling(client, {
      intervalMs: 5,
      since: '2026-09-24T00:00:00Z',
      onError: (error) => {
        errors.push(error);
      },
    });
    await vi.waitFor(() => expect(mirror.store.get(1, 1)).toMatchObject({ qty_available: 5 }));
    state.levels.push(level(2, 1, 9, T_B));
    await vi.waitFor(() => expect(mirror.store.get(2, 1)).toMatchObject({ qty_available: 9 }));
    await expect(poller.stop()).resolves.toBeUndefined();

    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ShopError);
    const since = state.queries.map((query) => query.query.updated_since);
    // The failed run and the first good one start at `since`; then each starts at the newest level read.
    expect(since.slice(0, 3)).toEqual(['2026-09-24T00:00:00Z', '2026-09-24T00:00:00Z', T_A]);
    expect(since.slice(2).every((value) => value === T_A || value === T_B)).toBe(true);
    const requests = state.queries.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(state.queries.length).toBe(requests);
  });
});

describe('compareTimestamps', () => {
  it.each([
    ['2026-09-24T10:00:00Z', '2026-09-24T10:00:00.000Z', 0],
    ['2026-09-24T10:00:00.5Z', '2026-09-24T10:00:00.500000Z', 0],
    ['2026-09-24T10:00:00.000001Z', '2026-09-24T10:00:00Z', 1],
    ['2026-09-24T09:59:59.999999Z', '2026-09-24T10:00:00Z', -1],
    ['2026-09-24T12:00:00+02:00', '2026-09-24T10:00:00Z', 0],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareTimestamps(a, b))).toBe(sign);
  });
});
