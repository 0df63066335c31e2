import { describe, expect, it } from 'vitest';
import { CardTransactionSchema } from '../../src/generated/schemas.js';
import { call, listAll, newSandbox } from './helpers.js';
import { getData } from './shop-helpers.js';

type Row = Record<string, unknown> & { id: number };
const values = (rows: Row[], field: string) => new Set(rows.map((row) => row[field]));

describe('sandbox card transactions', () => {
  it('seeds every kind, purpose, mode, processor and status, oldest first, never a card number', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['card_transactions:read'] });
    sandbox.clock.advance('10m');
    const rows: Row[] = await listAll(sandbox, '/v1/card-transactions?limit=7', key);
    expect(values(rows, 'kind')).toEqual(new Set(['charge', 'refund']));
    expect(values(rows, 'purpose')).toEqual(
      new Set(['sale', 'account_payment', 'membership', 'invoice_link']),
    );
    expect(values(rows, 'mode')).toEqual(new Set(['terminal', 'token', 'link', 'reference']));
    expect(values(rows, 'processor')).toEqual(new Set(['cardproc', 'simulator']));
    expect(values(rows, 'status')).toEqual(
      new Set([
        'pending',
        'approved',
        'declined',
        'cancelled',
        'failed',
        'reversing',
        'reversed',
        'refunded',
      ]),
    );
    expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => a - b));
    for (const row of rows) {
      expect(CardTransactionSchema.safeParse(row).success).toBe(true);
      expect(Object.keys(row).filter((field) => /number|token|pan/.test(field))).toEqual([]);
      if (row.card_last4 !== null) expect(row.card_last4).toMatch(/^\d{4}$/);
    }
  });

  it('a refund points at its charge; a fully refunded charge says refunded', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const refunds: Row[] = await getData(sandbox, '/v1/card-transactions?kind=refund', key);
    expect(refunds.length).toBeGreaterThan(0);
    for (const refund of refunds) {
      expect(refund).toMatchObject({ mode: 'reference', parent_id: expect.any(Number) });
      const parent = await getData(sandbox, `/v1/card-transactions/${refund.parent_id}`, key);
      expect(parent.kind).toBe('charge');
      expect(parent.refunded_cents).toBeGreaterThanOrEqual(refund.amount_cents as number);
    }
    const refunded = await getData(sandbox, '/v1/card-transactions?status=refunded', key);
    expect(refunded[0].refunded_cents).toBe(refunded[0].amount_cents);
  });

  it('reverses an approved charge still unattached 10 minutes after approval: approved, reversing, reversed', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const start = sandbox.clock.iso();
    const [open] = (await getData(sandbox, '/v1/card-transactions?status=approved&limit=200', key)).filter(
      (row: Row) => row.attached === false,
    );
    expect(open).toMatchObject({ kind: 'charge', completed_at: start });
    sandbox.clock.advance('9m59s');
    expect((await getData(sandbox, `/v1/card-transactions/${open.id}`, key)).status).toBe('approved');
    sandbox.clock.advance('1s');
    const reversing = await getData(sandbox, `/v1/card-transactions/${open.id}`, key);
    expect(reversing).toMatchObject({ status: 'reversing', updated_at: sandbox.clock.iso() });
    sandbox.clock.advance('1m');
    const reversed = await getData(sandbox, `/v1/card-transactions/${open.id}`, key);
    expect(reversed.status).toBe('reversed');
    const since = await getData(sandbox, `/v1/card-transactions?updated_since=${reversing.updated_at}`, key);
    expect(since.map((row: Row) => row.id)).toEqual([open.id]);
    const attached = (await getData(sandbox, '/v1/card-transactions?status=approved&limit=200', key)).filter(
      (row: Row) => row.attached === true,
    );
    expect(attached.length).toBeGreaterThan(5);
  });

  it('filters by status, kind, order_id and location_id', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const declined: Row[] = await listAll(sandbox, '/v1/card-transactions?status=declined', key);
    expect(values(declined, 'status')).toEqual(new Set(['declined']));
    const forOrder: Row[] = await listAll(sandbox, '/v1/card-transactions?order_id=1', key);
    expect(forOrder.map((row) => [row.kind, row.order_id])).toEqual([
      ['charge', 1],
      ['refund', 1],
    ]);
    const north: Row[] = await listAll(sandbox, '/v1/card-transactions?location_id=2', key);
    expect(north.length).toBeGreaterThan(0);
    expect(values(north, 'location_id')).toEqual(new Set([2]));
    expect(await listAll(sandbox, '/v1/card-transactions?status=unknown', key)).toEqual([]);
    const bad = await call(sandbox, 'GET', '/v1/card-transactions?updated_since=yesterday', { key });
    expect([bad.status, Object.keys(bad.json.error.details)]).toEqual([400, ['updated_since']]);
  });

  it('hides transactions at locations outside a limited key (404 on read)', async () => {
    const sandbox = newSandbox();
    const north = sandbox.createKey({ permissions: ['card_transactions:read'], locations: [2] });
    const rows: Row[] = await listAll(sandbox, '/v1/card-transactions', north);
    expect(values(rows, 'location_id')).toEqual(new Set([2, null]));
    const main = (await listAll(sandbox, '/v1/card-transactions?location_id=1', sandbox.createKey()))[0];
    const res = await call(sandbox, 'GET', `/v1/card-transactions/${main.id}`, { key: north });
    expect([res.status, res.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('has none in a shop without card processing', async () => {
    const sandbox = newSandbox({ cardProcessing: false });
    expect(await listAll(sandbox, '/v1/card-transactions', sandbox.createKey())).toEqual([]);
  });
});
