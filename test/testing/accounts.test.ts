import { describe, expect, it } from 'vitest';
import { EVENT_PAYLOAD_SCHEMAS } from '../../src/generated/events.js';
import {
  AccountPaymentSchema,
  CustomerAccountSchema,
  InvoiceSchema,
  StoreCreditSchema,
} from '../../src/generated/schemas.js';
import { call, listAll, newSandbox } from './helpers.js';
import { getData, idempotent, withFeed } from './shop-helpers.js';

describe('sandbox house accounts', () => {
  it('reads a house account with what is owed; 404 for a customer without one', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['accounts:read'] });
    const account = await getData(sandbox, '/v1/customers/2/account', key);
    expect(CustomerAccountSchema.safeParse(account).success).toBe(true);
    expect(account).toMatchObject({
      customer_id: 2,
      balance_cents: 18_500,
      credit_limit_cents: 100_000,
      available_credit_cents: 81_500,
      open_invoice_count: 2,
    });
    const none = await call(sandbox, 'GET', '/v1/customers/1/account', { key });
    expect([none.status, none.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('records a payment (Idempotency-Key required) against the oldest invoices first', async () => {
    const { sandbox, key, events } = withFeed();
    const path = '/v1/customers/2/account/payments';
    const withoutKey = await call(sandbox, 'POST', path, { key, body: { amount_cents: 12_500 } });
    expect([withoutKey.status, withoutKey.json.error.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
    const res = await call(sandbox, 'POST', path, {
      key,
      headers: idempotent(),
      body: { amount_cents: 12_500, tender: 'ach', reference: 'ACH 55120' },
    });
    expect(res.status).toBe(201);
    expect(AccountPaymentSchema.safeParse(res.json.data).success).toBe(true);
    expect(res.json.data).toMatchObject({
      customer_id: 2,
      amount_cents: 12_500,
      applied: [
        { invoice_id: 2, amount_cents: 6000 },
        { invoice_id: 1, amount_cents: 6500 },
      ],
      store_credit_cents: 0,
    });
    expect((await getData(sandbox, '/v1/customers/2/account', key)).balance_cents).toBe(6000);
    const fired = await events();
    expect(fired.map((event) => [event.type, event.data.object.status ?? null])).toEqual([
      ['account.payment_received', null],
      ['invoice.updated', 'paid'],
      ['invoice.updated', 'part_paid'],
    ]);
    for (const event of fired) {
      const schema = EVENT_PAYLOAD_SCHEMAS[event.type as keyof typeof EVENT_PAYLOAD_SCHEMAS];
      expect(schema.safeParse(event.data.object).success).toBe(true);
    }
  });

  it('paying more than is owed needs store_credit:write (422 OVERPAYMENT); with it the excess becomes store credit', async () => {
    const { sandbox, events } = withFeed();
    const accountsOnly = sandbox.createKey({ permissions: ['accounts:write'] });
    const over = await call(sandbox, 'POST', '/v1/customers/9/account/payments', {
      key: accountsOnly,
      headers: idempotent(),
      body: { amount_cents: 5000 },
    });
    expect([over.status, over.json.error.code, over.json.error.details]).toEqual([
      422,
      'OVERPAYMENT',
      { owed_cents: 4200 },
    ]);
    const withCredit = sandbox.createKey({ permissions: ['accounts:write', 'store_credit:write'] });
    const res = await call(sandbox, 'POST', '/v1/customers/9/account/payments', {
      key: withCredit,
      headers: idempotent(),
      body: { amount_cents: 5000 },
    });
    expect(res.json.data).toMatchObject({
      applied: [{ invoice_id: 4, amount_cents: 4200 }],
      store_credit_cents: 800,
    });
    const [credit] = await events('store_credit.changed');
    expect(credit.data.object).toMatchObject({
      customer_id: 9,
      balance_cents: 800,
      latest_entry: { kind: 'issued', amount_cents: 800 },
    });
  });

  it('lists invoices and account payments at the key locations, and reads one invoice', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['accounts:read'] });
    const invoices = await listAll(sandbox, '/v1/invoices?limit=2', key);
    expect(invoices.map((row) => row.status)).toEqual(['open', 'part_paid', 'paid', 'open', 'void', 'paid']);
    for (const row of invoices) expect(InvoiceSchema.safeParse(row).success).toBe(true);
    expect(await getData(sandbox, '/v1/invoices/4', key)).toMatchObject({
      kind: 'statement',
      customer_id: 9,
    });
    const north = sandbox.createKey({ permissions: ['accounts:read'], locations: [2] });
    expect((await listAll(sandbox, '/v1/invoices', north)).map((row) => row.id)).toEqual([3]);
    expect((await call(sandbox, 'GET', '/v1/invoices/1', { key: north })).status).toBe(404);
    const payments = await listAll(sandbox, '/v1/account-payments', key);
    expect(payments.map((row) => row.tender)).toEqual(['check', 'card', 'card']);
    expect(payments[1].card_transaction_id).toEqual(expect.any(Number));
    expect((await listAll(sandbox, '/v1/account-payments', north)).map((row) => row.id)).toEqual([2, 3]);
  });
});

describe('sandbox store credit', () => {
  it('reads a balance with its latest entry, and lists customers with store credit', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey({ permissions: ['store_credit:read'] });
    const credit = await getData(sandbox, '/v1/customers/1/store-credit', key);
    expect(StoreCreditSchema.safeParse(credit).success).toBe(true);
    expect(credit).toMatchObject({
      customer_id: 1,
      balance_cents: 3500,
      latest_entry: { kind: 'spent', amount_cents: -1500 },
    });
    expect(await getData(sandbox, '/v1/customers/3/store-credit', key)).toMatchObject({
      balance_cents: 0,
      latest_entry: null,
    });
    expect((await call(sandbox, 'GET', '/v1/customers/999/store-credit', { key })).status).toBe(404);
    const all = await listAll(sandbox, '/v1/store-credit?limit=2', key);
    expect(all.map((row) => [row.customer_id, row.balance_cents])).toEqual([
      [1, 3500],
      [6, 2499],
      [11, 1000],
    ]);
  });

  it('issues and redeems (Idempotency-Key required, store_credit.changed); too little is 422 INSUFFICIENT_CREDIT', async () => {
    const { sandbox, key, events } = withFeed();
    const issue = await call(sandbox, 'POST', '/v1/customers/3/store-credit/issue', {
      key,
      headers: idempotent(),
      body: { amount_cents: 2000, note: 'Price match' },
    });
    expect(issue.json.data).toMatchObject({
      balance_cents: 2000,
      latest_entry: { kind: 'issued', note: 'Price match' },
    });
    const redeem = await call(sandbox, 'POST', '/v1/customers/3/store-credit/redeem', {
      key,
      headers: idempotent(),
      body: { amount_cents: 500 },
    });
    expect(redeem.json.data).toMatchObject({
      balance_cents: 1500,
      latest_entry: { kind: 'spent', amount_cents: -500 },
    });
    const short = await call(sandbox, 'POST', '/v1/customers/3/store-credit/redeem', {
      key,
      headers: idempotent(),
      body: { amount_cents: 1501 },
    });
    expect([short.status, short.json.error.code, short.json.error.details]).toEqual([
      422,
      'INSUFFICIENT_CREDIT',
      { balance_cents: 1500 },
    ]);
    const noKey = await call(sandbox, 'POST', '/v1/customers/3/store-credit/issue', {
      key,
      body: { amount_cents: 1 },
    });
    expect(noKey.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect((await events('store_credit.changed')).map((event) => event.data.object.balance_cents)).toEqual([
      2000, 1500,
    ]);
  });

  it('replays a balance move sent twice with the same Idempotency-Key (the balance moves once)', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    const headers = idempotent();
    const send = () =>
      call(sandbox, 'POST', '/v1/customers/3/store-credit/issue', {
        key,
        headers,
        body: { amount_cents: 700 },
      });
    const first = await send();
    const second = await send();
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.json).toEqual(first.json);
    expect((await getData(sandbox, '/v1/customers/3/store-credit', key)).balance_cents).toBe(700);
  });
});
