// Card transactions (reference sections 2, 3 and 4) through ShopClient over HTTP: reconciliation reads, the
// automatic reversal of an approved charge nobody attached, refunds tied to their charge, location limits,
// and a shop without card processing.
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { conformanceTest, failure, useE2E } from './support/harness.js';

const e2e = useE2E();

describe('reading card transactions for reconciliation', () => {
  it('filters by status, kind, order and location, oldest first', async () => {
    const shop = e2e.client();
    const all = await shop.cardTransactions.list().toArray();
    expect(all.map((row) => row.id)).toEqual([...all.map((row) => row.id)].sort((a, b) => a - b));
    expect(new Set(all.map((row) => row.status))).toEqual(
      new Set(['pending', 'approved', 'declined', 'cancelled', 'failed', 'reversed', 'refunded']),
    );

    const declined = await shop.cardTransactions.list({ status: 'declined' }).toArray();
    expect(declined.length).toBeGreaterThan(0);
    expect(declined.every((row) => row.status === 'declined' && row.attached === false)).toBe(true);
    const refunds = await shop.cardTransactions.list({ kind: 'refund' }).toArray();
    expect(refunds.every((row) => row.kind === 'refund' && row.mode === 'reference')).toBe(true);
    const atSecond = await shop.cardTransactions.list({ location_id: 2 }).toArray();
    expect(atSecond.length).toBeGreaterThan(0);
    expect(atSecond.every((row) => row.location_id === 2)).toBe(true);
    const ofOrder = await shop.cardTransactions.list({ order_id: refunds[0]!.order_id! }).toArray();
    expect(ofOrder.map((row) => row.id)).toContain(refunds[0]!.parent_id);
  });

  it('ties every refund to the charge it gives money back on', async () => {
    const shop = e2e.client();
    for (const refund of await shop.cardTransactions.list({ kind: 'refund' }).toArray()) {
      const charge = await shop.cardTransactions.retrieve(refund.parent_id!);
      expect(charge).toMatchObject({ kind: 'charge', order_id: refund.order_id });
      expect(charge.refunded_cents).toBeGreaterThanOrEqual(refund.amount_cents);
    }
  });

  it('never carries a card number or a card token, only brand and last four', async () => {
    for (const row of await e2e.client().cardTransactions.list().toArray()) {
      expect(Object.keys(row).filter((field) => /number|token|pan|cvv/i.test(field))).toEqual([]);
      // processor_ref is the processor's own payment id (hex); no other text may hold a card-length number.
      const texts = Object.entries(row).filter(
        ([field, value]) => typeof value === 'string' && field !== 'processor_ref',
      );
      expect(texts.filter(([, value]) => /\d{13,19}/.test(value as string))).toEqual([]);
      if (row.card_last4 !== null) expect(row.card_last4).toMatch(/^\d{4}$/);
    }
  });

  it('shows a location-limited key only its locations, and 404 for the others', async () => {
    const firstStore = e2e.client({ apiKey: e2e.key({ locations: [1] }) });
    const mine = await firstStore.cardTransactions.list().toArray();
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((row) => row.location_id !== 2)).toBe(true);
    const [elsewhere] = (await e2e.client().cardTransactions.list({ location_id: 2 })).data;
    const error = await failure(firstStore.cardTransactions.retrieve(elsewhere!.id));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('has no card transactions at all in a shop without card processing', async () => {
    const cash = await e2e.another({ cardProcessing: false });
    try {
      expect(await cash.client.cardTransactions.list().toArray()).toEqual([]);
    } finally {
      await cash.close();
    }
  });
});

describe('the automatic reversal (reference section 3)', () => {
  it('reverses an approved charge still unattached 10 minutes after approval, through reversing', async () => {
    const shop = e2e.client();
    const stray = (await shop.cardTransactions.list({ status: 'approved' }).toArray()).find(
      (row) => !row.attached && row.kind === 'charge',
    );
    expect(stray).toBeDefined();
    const approvedAt = Date.parse(stray!.completed_at ?? stray!.created_at);
    const since = e2e.sandbox.clock.now().toISOString();

    e2e.sandbox.clock.set(new Date(approvedAt + 10 * 60_000 - 1000));
    expect((await shop.cardTransactions.retrieve(stray!.id)).status).toBe('approved');
    e2e.sandbox.clock.advance('1s');
    expect((await shop.cardTransactions.retrieve(stray!.id)).status).toBe('reversing');
    e2e.sandbox.clock.advance('2m');
    const reversed = await shop.cardTransactions.retrieve(stray!.id);
    expect(reversed).toMatchObject({ status: 'reversed', attached: false });

    // A reconciler polling with updated_since sees the change.
    const changed = await shop.cardTransactions.list({ updated_since: since }).toArray();
    expect(changed.map((row) => row.id)).toContain(stray!.id);
  });
});

conformanceTest(e2e, 2);
