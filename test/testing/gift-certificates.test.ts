import { describe, expect, it } from 'vitest';
import { GiftCertificateSchema } from '../../src/generated/schemas.js';
import { call, newSandbox } from './helpers.js';
import { idempotent, withFeed } from './shop-helpers.js';

function setup() {
  const feed = withFeed();
  const post = (path: string, body: unknown = {}, headers = idempotent()) =>
    call(feed.sandbox, 'POST', `/v1/gift-certificates${path}`, { key: feed.key, body, headers });
  return { ...feed, post };
}

describe('sandbox gift certificates', () => {
  it('issues with a generated or requested code (gift_certificate.issued)', async () => {
    const { post, events } = setup();
    const generated = await post('', { amount_cents: 2500 });
    expect(generated.status).toBe(201);
    expect(GiftCertificateSchema.safeParse(generated.json.data).success).toBe(true);
    expect(generated.json.data).toMatchObject({
      status: 'active',
      balance_cents: 2500,
      initial_balance_cents: 2500,
    });
    expect(generated.json.data.code).toMatch(/^[A-Za-z0-9-]{6,40}$/);
    const requested = await post('', {
      amount_cents: 1000,
      code: 'BDAY-2026-JX',
      customer_id: 4,
      expires_on: '2027-10-01',
    });
    expect(requested.json.data).toMatchObject({
      code: 'BDAY-2026-JX',
      customer_id: 4,
      expires_on: '2027-10-01',
    });
    expect((await events('gift_certificate.issued')).map((event) => event.data.object.id)).toEqual([
      generated.json.data.id,
      requested.json.data.id,
    ]);
  });

  it('refuses a malformed code (422 GIFT_CERTIFICATE_CODE_INVALID), a used one (409 ..._CODE_TAKEN) and no key', async () => {
    const { post } = setup();
    for (const code of ['abc', 'has space!', 'x'.repeat(41)]) {
      const res = await post('', { amount_cents: 100, code });
      expect([res.status, res.json.error.code]).toEqual([422, 'GIFT_CERTIFICATE_CODE_INVALID']);
    }
    const taken = await post('', { amount_cents: 100, code: 'gc-ridge-0001' });
    expect([taken.status, taken.json.error.code]).toEqual([409, 'GIFT_CERTIFICATE_CODE_TAKEN']);
    const past = await post('', { amount_cents: 100, expires_on: '2026-09-30' });
    expect([past.status, Object.keys(past.json.error.details)]).toEqual([400, ['expires_on']]);
    const noKey = await post('', { amount_cents: 100 }, {});
    expect([noKey.status, noKey.json.error.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
  });

  it('redeems down to depleted; too much is 422 GIFT_CERTIFICATE_INSUFFICIENT with details.balance_cents', async () => {
    const { post, events } = setup();
    const spent = await post('/2/redeem', { amount_cents: 1250 });
    expect(spent.json.data).toMatchObject({ balance_cents: 2000, status: 'active' });
    const tooMuch = await post('/2/redeem', { amount_cents: 2001 });
    expect([tooMuch.status, tooMuch.json.error.code, tooMuch.json.error.details]).toEqual([
      422,
      'GIFT_CERTIFICATE_INSUFFICIENT',
      { balance_cents: 2000 },
    ]);
    const rest = await post('/2/redeem', { amount_cents: 2000 });
    expect(rest.json.data).toMatchObject({ balance_cents: 0, status: 'depleted' });
    expect(
      (await events('gift_certificate.updated')).map((event) => event.data.object.balance_cents),
    ).toEqual([2000, 0]);
  });

  it('refuses disabled, expired and depleted certificates with 422 GIFT_CERTIFICATE_INACTIVE (details.status)', async () => {
    const { post } = setup();
    for (const [id, status] of [
      [3, 'disabled'],
      [4, 'expired'],
      [5, 'depleted'],
    ] as const) {
      const res = await post(`/${id}/redeem`, { amount_cents: 1 });
      expect([res.status, res.json.error.code, res.json.error.details]).toEqual([
        422,
        'GIFT_CERTIFICATE_INACTIVE',
        { status },
      ]);
    }
    const reloadDisabled = await post('/3/reload', { amount_cents: 100 });
    expect(reloadDisabled.json.error).toMatchObject({
      code: 'GIFT_CERTIFICATE_INACTIVE',
      details: { status: 'disabled' },
    });
    const reloadDepleted = await post('/5/reload', { amount_cents: 1000 });
    expect(reloadDepleted.json.data).toMatchObject({ status: 'active', balance_cents: 1000 });
  });

  it('reverses the latest move, adjusts by a signed amount, and disables and enables', async () => {
    const { post } = setup();
    await post('/1/redeem', { amount_cents: 1200 });
    const reversed = await post('/1/reverse', { note: 'Wrong card scanned' });
    expect(reversed.json.data.balance_cents).toBe(5000);
    const nothing = await post('/1/reverse');
    expect([nothing.status, nothing.json.error.code]).toEqual([409, 'INVALID_STATE']);
    expect((await post('/1/adjust', { amount_cents: -250 })).json.data.balance_cents).toBe(4750);
    const below = await post('/1/adjust', { amount_cents: -5000 });
    expect([below.status, Object.keys(below.json.error.details)]).toEqual([400, ['amount_cents']]);
    const zero = await post('/1/adjust', { amount_cents: 0 });
    expect(zero.status).toBe(400);
    expect((await post('/1/disable')).json.data.status).toBe('disabled');
    const twice = await post('/1/disable');
    expect([twice.status, twice.json.error.code]).toEqual([409, 'INVALID_STATE']);
    expect((await post('/1/enable')).json.data.status).toBe('active');
    expect((await post('/4/enable')).json.error.code).toBe('INVALID_STATE');
    expect((await post('/999/redeem', { amount_cents: 1 })).status).toBe(404);
  });

  it('expires a certificate the day after expires_on, on the clock (gift_certificate.updated)', async () => {
    const { sandbox, events } = setup();
    sandbox.clock.set('2026-10-04T23:59:00Z');
    expect(sandbox.world.state.promotions.giftCertificates.get(6)!.status).toBe('active');
    sandbox.clock.set('2026-10-05T00:00:00Z');
    const [event] = await events('gift_certificate.updated');
    expect(event.data.object).toMatchObject({ id: 6, status: 'expired', expires_on: '2026-10-04' });
  });

  it('disable and enable need no Idempotency-Key; balance moves do', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    expect((await call(sandbox, 'POST', '/v1/gift-certificates/1/disable', { key })).status).toBe(200);
    const redeem = await call(sandbox, 'POST', '/v1/gift-certificates/2/redeem', {
      key,
      body: { amount_cents: 1 },
    });
    expect(redeem.json.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });
});
