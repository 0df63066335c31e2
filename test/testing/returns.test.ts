import { describe, expect, it } from 'vitest';
import { ReturnSchema } from '../../src/generated/schemas.js';
import { call, listAll, newSandbox } from './helpers.js';

describe('sandbox returns', () => {
  it('lists returns of both sources with their lines, oldest first', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['returns:read'] });
    const rows = await listAll(sandbox, '/v1/returns?limit=1', key);
    expect(rows.map((row) => [row.source, row.order_id !== null, row.storefront_order_id !== null])).toEqual([
      ['sale', true, false],
      ['sale', true, false],
      ['online', false, true],
      ['online', false, true],
    ]);
    expect(new Set(rows.map((row) => row.settlement))).toEqual(
      new Set(['refund', 'store_credit', 'exchange']),
    );
    for (const row of rows) {
      expect(ReturnSchema.safeParse(row).success).toBe(true);
      expect(row.total_cents).toBe(row.items_cents + row.tax_cents - row.restock_fee_cents);
    }
    expect(rows[2].lines[0]).toMatchObject({
      object: 'return_line',
      order_line_id: null,
      qty: 2,
      condition: 'restock',
    });
    expect(rows[1].lines[0]).toMatchObject({ condition: 'damaged', restocked: false });
  });

  it('filters by order, customer, source, location and creation time (updated_since)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const ids = async (query: string) =>
      (await listAll(sandbox, `/v1/returns?${query}`, key)).map((row) => row.id);
    expect(await ids('source=online')).toEqual([3, 4]);
    expect(await ids('order_id=1')).toEqual([1]);
    expect(await ids('customer_id=6')).toEqual([2]);
    expect(await ids('location_id=2')).toEqual([2]);
    expect(await ids('updated_since=2026-09-26T00:00:00Z')).toEqual([3, 4]);
  });

  it('reads one return, and answers 404 for one at a location the key cannot see', async () => {
    const sandbox = newSandbox();
    const one = await call(sandbox, 'GET', '/v1/returns/2', { key: sandbox.createKey() });
    expect(one.json.data).toMatchObject({ id: 2, number: 'RT-2002', location_id: 2 });
    const main = sandbox.createKey({ permissions: ['returns:read'], locations: [1] });
    expect((await listAll(sandbox, '/v1/returns', main)).map((row) => row.id)).toEqual([1, 3, 4]);
    const hidden = await call(sandbox, 'GET', '/v1/returns/2', { key: main });
    expect([hidden.status, hidden.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
