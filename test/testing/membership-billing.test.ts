import { describe, expect, it } from 'vitest';
import { EVENT_PAYLOAD_SCHEMAS } from '../../src/generated/events.js';
import { SandboxUsageError } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';
import { getData, withFeed } from './shop-helpers.js';

describe('sandbox membership billing on the clock', () => {
  it('renews a card member at 00:00 UTC of the bill date: dues paid by the saved card, sale.completed', async () => {
    const { sandbox, key, events } = withFeed();
    sandbox.clock.set('2026-10-03T23:59:59Z');
    expect((await getData(sandbox, '/v1/memberships/1', key)).current_period_start).toBe('2026-09-04');
    sandbox.clock.advance('1s');
    const renewed = await getData(sandbox, '/v1/memberships/1', key);
    expect(renewed).toMatchObject({
      status: 'active',
      current_period_start: '2026-10-04',
      current_period_end: '2026-11-03',
      next_bill_on: '2026-11-04',
      // Two changes at 00:00, renewed then paid: each takes its own millisecond.
      updated_at: '2026-10-04T00:00:00.001Z',
    });
    const dues = renewed.charges[0];
    expect(dues).toMatchObject({
      kind: 'dues',
      status: 'paid',
      amount_cents: 3999,
      attempts: 1,
      due_on: '2026-10-04',
    });
    expect(dues.order_id).toEqual(expect.any(Number));
    const card = (await getData(sandbox, `/v1/card-transactions?order_id=${dues.order_id}`, key))[0];
    expect(card).toMatchObject({
      kind: 'charge',
      purpose: 'membership',
      mode: 'token',
      status: 'approved',
      attached: true,
      membership_charge_id: dues.id,
      card_last4: '4242',
    });
    const fired = await events();
    const renewal = fired.find((event) => event.type === 'membership.updated' && event.data.object.id === 1);
    expect(renewal.data.object).toMatchObject({ change: 'renewed', current_period_start: '2026-10-04' });
    const sale = fired.find((event) => event.type === 'sale.completed');
    expect(sale.data.object).toMatchObject({ id: dues.order_id, status: 'completed', total_cents: 3999 });
    expect(sale.data.object.lines).toEqual([expect.objectContaining({ type: 'membership' })]);
    expect(sale.data.object.customer).toMatchObject({ object: 'customer', id: 1, email: expect.any(String) });
    for (const event of fired) {
      const schema = EVENT_PAYLOAD_SCHEMAS[event.type as keyof typeof EVENT_PAYLOAD_SCHEMAS];
      expect(schema.safeParse(event.data.object).success, event.type).toBe(true);
    }
  });

  it('retries a declining card on its schedule (membership.payment_failed), then expires past the last retry day', async () => {
    const { sandbox, key, events } = withFeed();
    const before = await getData(sandbox, '/v1/memberships/3', key);
    expect(before.status).toBe('past_due');
    expect(before.charges[0]).toMatchObject({ status: 'failed', attempts: 2, due_on: '2026-09-27' });
    sandbox.clock.set('2026-10-04T00:00:00Z');
    const retried = await getData(sandbox, '/v1/memberships/3', key);
    expect(retried.status).toBe('past_due');
    expect(retried.charges[0]).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: expect.stringMatching(/declined/i),
    });
    const [failed] = await events('membership.payment_failed');
    expect(failed.data.object).toMatchObject({ id: 3, change: 'payment_failed', detail: expect.any(String) });
    const declines = await getData(sandbox, '/v1/card-transactions?status=declined&limit=200', key);
    expect(
      declines.filter(
        (row: { membership_charge_id: number }) => row.membership_charge_id === before.charges[0].id,
      ),
    ).toHaveLength(3);
    sandbox.clock.set('2026-10-05T00:00:00Z');
    expect((await getData(sandbox, '/v1/memberships/3', key)).status).toBe('expired');
    const expired = (await events('membership.updated')).find((event) => event.data.object.id === 3);
    expect(expired.data.object).toMatchObject({ status: 'expired', change: 'expired', next_bill_on: null });
  });

  it('link billing: dues are due with a pay link at renewal, past_due the day after, active again when paid at the register', async () => {
    const { sandbox, key, events } = withFeed();
    const created = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { customer_id: 5, plan_id: 1, billing_method: 'link', paid: true },
    });
    const id = created.json.data.id;
    sandbox.clock.set('2026-11-01T00:00:00Z');
    const renewed = await getData(sandbox, `/v1/memberships/${id}`, key);
    expect(renewed.status).toBe('active');
    expect(renewed.charges[0]).toMatchObject({
      status: 'due',
      due_on: '2026-11-01',
      pay_url: expect.stringMatching(/^https:/),
    });
    expect(sandbox.sentEmails().at(-1)).toMatchObject({ kind: 'membership_pay_link' });
    sandbox.clock.set('2026-11-02T00:00:00Z');
    expect((await getData(sandbox, `/v1/memberships/${id}`, key)).status).toBe('past_due');
    const paid = sandbox.register.payMembership(id);
    expect(paid.status).toBe('active');
    const changes = (await events('membership.updated'))
      .filter((event) => event.data.object.id === id)
      .map((event) => event.data.object.change);
    expect(changes).toEqual(['renewed', 'past_due', 'reactivated']);
    const sale = (await events('sale.completed')).at(-1);
    expect(sale.data.object.lines[0]).toMatchObject({ type: 'membership', total_cents: 3999 });
    const after = await getData(sandbox, `/v1/memberships/${id}`, key);
    expect(after.charges[0]).toMatchObject({ status: 'paid', order_id: sale.data.object.id, pay_url: null });
  });

  it('a pending membership becomes active on its first payment at the register', async () => {
    const { sandbox, key, events } = withFeed();
    const member = sandbox.register.payMembership(4, { tender: 'card' });
    expect(member.status).toBe('active');
    const [change] = await events('membership.updated');
    expect(change.data.object).toMatchObject({ id: 4, change: 'activated' });
    const detail = await getData(sandbox, '/v1/memberships/4', key);
    expect(detail.charges[0]).toMatchObject({ kind: 'signup', status: 'paid' });
    const cards = await getData(sandbox, `/v1/card-transactions?order_id=${detail.charges[0].order_id}`, key);
    expect(cards[0]).toMatchObject({ purpose: 'membership', mode: 'terminal', attached: true });
    expect(() => sandbox.register.payMembership(4)).toThrow(SandboxUsageError);
  });

  it('cancels a cancel_at_period_end member when its period ends, without renewing', async () => {
    const { sandbox, key } = withFeed();
    const before = await getData(sandbox, '/v1/memberships/8', key);
    expect(before).toMatchObject({ cancel_at_period_end: true, current_period_end: '2026-10-07' });
    sandbox.clock.set('2026-10-08T00:00:00Z');
    const after = await getData(sandbox, '/v1/memberships/8', key);
    expect(after).toMatchObject({ status: 'cancelled', cancelled_at: '2026-10-08T00:00:00.000Z' });
    expect(after.charges).toHaveLength(before.charges.length);
  });

  it('ends a pending membership with cancel_at_period_end after its first period, never renewing it', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const created = await call(sandbox, 'POST', '/v1/memberships', {
      key,
      body: { customer_id: 5, plan_id: 1, billing_method: 'counter' },
    });
    const id = created.json.data.id;
    await call(sandbox, 'POST', `/v1/memberships/${id}/cancel`, { key, body: {} });
    sandbox.clock.set('2026-10-31T12:00:00Z');
    expect((await getData(sandbox, `/v1/memberships/${id}`, key)).status).toBe('pending');
    sandbox.clock.set('2026-11-01T00:00:00Z');
    const ended = await getData(sandbox, `/v1/memberships/${id}`, key);
    expect(ended.status).toBe('cancelled');
    expect(ended.charges).toHaveLength(1);
  });

  it('leaves a frozen membership alone (what ends a freeze is not shown in the reference)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    sandbox.clock.set('2026-10-20T00:00:00Z');
    expect(await getData(sandbox, '/v1/memberships/7', key)).toMatchObject({
      status: 'frozen',
      frozen_until: '2026-10-11',
    });
  });
});
