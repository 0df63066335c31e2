// The membership machine (reference section 3) through ShopClient over HTTP: sign-ups paid and unpaid, the
// first payment at the register, cancelling now or at the period's end, renewal, past due and expiry on the
// sandbox's clock, guest passes, and every refusal the reference lists for memberships.
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  NotFoundError,
  ParamsValidationError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { conformanceTest, failure, spec, useE2E } from './support/harness.js';
import { Recorder } from './support/recorder.js';

const e2e = useE2E();
e2e.sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/never-flushed', types: ['*'] });

/** The membership events about one membership, oldest first, as `[type, change]`. */
async function historyOf(membershipId: number): Promise<[string, unknown][]> {
  const events = await e2e.client().events.list().toArray();
  return events
    .filter((event) => event.type.startsWith('membership.'))
    .filter((event) => (event.data.object as { id?: number }).id === membershipId)
    .map((event) => [event.type, (event.data.object as { change?: unknown }).change ?? null]);
}

describe('signing up (reference section 3)', () => {
  it('starts a paid sign-up active, with its signup charge paid and no order', async () => {
    const shop = e2e.client();
    const membership = await shop.memberships.create({
      customer_id: 5,
      plan_id: 1,
      billing_method: 'counter',
      paid: true,
    });
    expect(membership).toMatchObject({ status: 'active', source: 'api', customer_id: 5, plan_id: 1 });
    expect(membership.charges).toEqual([
      expect.objectContaining({ kind: 'signup', status: 'paid', order_id: null, amount_cents: 3999 + 2500 }),
    ]);
    expect(membership.members).toEqual([expect.objectContaining({ customer_id: 5, role: 'primary' })]);
    expect(await historyOf(membership.id)).toEqual([['membership.created', null]]);
  });

  it('leaves an unpaid link sign-up pending with a pay link, until the first payment at the register', async () => {
    const shop = e2e.client();
    const emails = e2e.sandbox.sentEmails().length;
    const pending = await shop.memberships.create({ customer_id: 14, plan_id: 3, billing_method: 'link' });
    expect(pending.status).toBe('pending');
    expect(pending.charges[0]).toMatchObject({ kind: 'signup', status: 'due', pay_url: expect.any(String) });
    expect(e2e.sandbox.sentEmails().slice(emails)).toEqual([
      expect.objectContaining({ kind: 'membership_pay_link' }),
    ]);

    e2e.sandbox.register.payMembership(pending.id);

    const active = await shop.memberships.retrieve(pending.id);
    expect(active.status).toBe('active');
    expect(active.charges[0]).toMatchObject({ status: 'paid', order_id: expect.any(Number) });
    expect(await historyOf(pending.id)).toEqual([
      ['membership.created', null],
      ['membership.updated', 'activated'],
    ]);
  });

  it('returns the same membership for a repeated external_reference instead of signing up twice', async () => {
    const shop = e2e.client();
    const params = {
      customer_id: 12,
      plan_id: 3,
      billing_method: 'counter' as const,
      external_reference: 'crm-5521',
    };
    const first = await shop.memberships.create(params);
    const again = await shop.memberships.create(params, { idempotencyKey: 'a-different-key' });
    expect(again.id).toBe(first.id);
    expect((await shop.memberships.list({ customer_id: 12, plan_id: 3 }).toArray()).length).toBe(1);
  });

  // The sandbox answers a repeated external_reference with 200 (docs/testing.md); the spec documents the
  // existing record as its 2XX response, beside the 201 of a sign-up.
  it('answers a repeated external_reference with a status the spec documents (201, then 2XX)', async () => {
    const own = new Recorder(spec());
    const shop = e2e.client({ fetch: own.fetch });
    const params = {
      customer_id: 11,
      plan_id: 3,
      billing_method: 'counter' as const,
      external_reference: 'crm-77',
    };
    const first = await shop.memberships.create(params).withResponse();
    const again = await shop.memberships.create(params).withResponse();
    expect([first.response.status, again.response.status]).toEqual([201, 200]);
    expect(again.data.id).toBe(first.data.id);
    expect(own.violations()).toEqual([]);
  });
});

describe('cancelling', () => {
  it('ends it now with at_period_end false, voiding what is owed', async () => {
    const shop = e2e.client();
    const pending = await shop.memberships.create({ customer_id: 4, plan_id: 1, billing_method: 'counter' });
    const cancelled = await shop.memberships.cancel(pending.id, {
      reason: 'Changed mind',
      at_period_end: false,
    });
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'Changed mind' });
    expect(cancelled.cancelled_at).not.toBeNull();
    expect((await shop.memberships.retrieve(pending.id)).charges[0]).toMatchObject({ status: 'void' });
    expect((await historyOf(pending.id)).at(-1)).toEqual(['membership.updated', 'cancelled']);
  });

  it('refuses to cancel a membership that already ended: 409 INVALID_STATE', async () => {
    const [cancelled] = (await e2e.client().memberships.list({ status: 'cancelled' })).data;
    const error = await failure(e2e.client().memberships.cancel(cancelled!.id, { at_period_end: false }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'INVALID_STATE', details: { status: 'cancelled' } });
  });

  it('lets a location-limited key read any membership but cancel only those homed at its locations', async () => {
    const firstStore = e2e.client({ apiKey: e2e.key({ locations: [1] }) });
    const homedElsewhere = (await e2e.client().memberships.list().toArray()).find(
      (membership) => membership.location_id === 2 && membership.status === 'active',
    );
    expect(homedElsewhere).toBeDefined();
    await expect(firstStore.memberships.retrieve(homedElsewhere!.id)).resolves.toMatchObject({
      location_id: 2,
    });
    const error = await failure(firstStore.memberships.cancel(homedElsewhere!.id, { at_period_end: false }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((await e2e.client().memberships.retrieve(homedElsewhere!.id)).status).toBe('active');
  });
});

describe('guest passes', () => {
  it('takes one pass off the allowance, then refuses with 422 NO_GUEST_PASSES when none are left', async () => {
    const shop = e2e.client();
    const member = await shop.memberships.create({
      customer_id: 6,
      plan_id: 3,
      billing_method: 'counter',
      paid: true,
    });
    expect(member.guest_passes_left).toBe(1);
    const used = await shop.memberships.useGuestPass(member.id, { note: 'Alex, a guest' });
    expect(used.guest_passes_left).toBe(0);
    const error = await failure(shop.memberships.useGuestPass(member.id));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: 'NO_GUEST_PASSES' });
  });
});

describe('refused sign-ups', () => {
  it('refuses a second membership on the same plan: 409 ALREADY_MEMBER', async () => {
    const error = await failure(
      e2e.client().memberships.create({ customer_id: 1, plan_id: 1, billing_method: 'counter' }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'ALREADY_MEMBER' });
  });

  // MEMBERSHIP_FULL has no status or condition in the reference; the sandbox answers 409 to a sign-up with
  // more people than the plan's max_members, family members given in a `members` field of its own. The typed
  // create sends only the reference's fields, so the sign-up goes through a raw call.
  it('refuses more people than the plan takes: 409 MEMBERSHIP_FULL (the sandbox reading)', async () => {
    const shop = e2e.client();
    const body = { customer_id: 14, plan_id: 1, billing_method: 'counter', members: [10] };
    const refused = await failure(
      shop.memberships.create(body as Parameters<typeof shop.memberships.create>[0]),
    );
    expect(refused).toBeInstanceOf(ParamsValidationError);
    const error = await failure(shop.post('/v1/memberships', { body }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      status: 409,
      code: 'MEMBERSHIP_FULL',
      details: { max_members: 1, members: 2 },
    });
    expect(e2e.recorder.exchanges.at(-1)).toMatchObject({ status: 409 });
  });

  it('refuses an archived plan: 422 PLAN_ARCHIVED', async () => {
    const plans = await e2e.client().membershipPlans.list({ status: 'archived' }).toArray();
    const error = await failure(
      e2e.client().memberships.create({ customer_id: 2, plan_id: plans[0]!.id, billing_method: 'counter' }),
    );
    expect(error).toMatchObject({ status: 422, code: 'PLAN_ARCHIVED' });
  });

  it('refuses every sign-up in a shop with memberships off: 422 MEMBERSHIPS_OFF', async () => {
    const off = await e2e.another({ memberships: false });
    try {
      const error = await failure(
        off.client.memberships.create({ customer_id: 2, plan_id: 1, billing_method: 'counter' }),
      );
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect(error).toMatchObject({ status: 422, code: 'MEMBERSHIPS_OFF' });
    } finally {
      await off.close();
    }
  });

  it('refuses link billing in a shop without card processing: 422 CARD_PROCESSING_OFF', async () => {
    const cash = await e2e.another({ cardProcessing: false });
    try {
      const error = await failure(
        cash.client.memberships.create({ customer_id: 2, plan_id: 1, billing_method: 'link' }),
      );
      expect(error).toMatchObject({ status: 422, code: 'CARD_PROCESSING_OFF' });
      await expect(
        cash.client.memberships.create({ customer_id: 2, plan_id: 1, billing_method: 'counter' }),
      ).resolves.toMatchObject({ status: 'pending' });
    } finally {
      await cash.close();
    }
  });
});

// These move the file's clock forward by days, so they run last and in order. The feed keeps 30 days, so each
// test reads the events it expects before the clock moves far.
describe('on the clock: renewal, past due, expiry and scheduled cancellation', () => {
  it('renews an active card member on next_bill_on, charging the saved card; a declining card is retried', async () => {
    const shop = e2e.client();
    const [renewing] = (await shop.memberships.list({ status: 'active', customer_id: 1 })).data;
    const [declining] = (await shop.memberships.list({ status: 'past_due' })).data;
    const billOn = renewing!.next_bill_on!;
    e2e.sandbox.clock.set(`${billOn}T06:00:00.000Z`);

    const renewed = await shop.memberships.retrieve(renewing!.id);
    expect(renewed).toMatchObject({ status: 'active', current_period_start: billOn });
    expect(renewed.charges[0]).toMatchObject({
      kind: 'dues',
      status: 'paid',
      amount_cents: renewing!.price_cents,
    });
    expect((await historyOf(renewing!.id)).map(([, change]) => change)).toContain('renewed');
    const cards = await shop.cardTransactions.list({ order_id: renewed.charges[0]!.order_id! }).toArray();
    expect(cards).toEqual([
      expect.objectContaining({ purpose: 'membership', mode: 'token', status: 'approved' }),
    ]);

    const retried = await shop.memberships.retrieve(declining!.id);
    expect(retried.status).toBe('past_due');
    expect(retried.charges.find((charge) => charge.status === 'failed')?.attempts).toBeGreaterThan(1);
    expect(await historyOf(declining!.id)).toContainEqual(['membership.payment_failed', 'payment_failed']);
  });

  it('expires a past-due member still unpaid after the last retry day', async () => {
    const shop = e2e.client();
    const [declining] = (await shop.memberships.list({ status: 'past_due' })).data;
    e2e.sandbox.clock.advance('2d');
    expect((await shop.memberships.retrieve(declining!.id)).status).toBe('expired');
    expect((await historyOf(declining!.id)).at(-1)).toEqual(['membership.updated', 'expired']);
  });

  it('moves a counter member to past_due the day after renewal dues go unpaid', async () => {
    const shop = e2e.client();
    const member = await shop.memberships.create({
      customer_id: 10,
      plan_id: 1,
      billing_method: 'counter',
      paid: true,
    });
    e2e.sandbox.clock.set(`${member.next_bill_on}T12:00:00.000Z`);
    const renewed = await shop.memberships.retrieve(member.id);
    expect(renewed).toMatchObject({
      status: 'active',
      charges: [expect.objectContaining({ status: 'due' }), expect.anything()],
    });
    e2e.sandbox.clock.advance('1d');
    expect((await shop.memberships.retrieve(member.id)).status).toBe('past_due');
    // A month on, the sign-up's own event has left the 30-day feed.
    expect((await historyOf(member.id)).map(([, change]) => change)).toEqual(['renewed', 'past_due']);
  });

  it('keeps a cancel_at_period_end member active until the paid period ends, then cancels it', async () => {
    const shop = e2e.client();
    const member = await shop.memberships.create({
      customer_id: 9,
      plan_id: 1,
      billing_method: 'counter',
      paid: true,
    });
    const scheduled = await shop.memberships.cancel(member.id, { reason: 'Moving away' });
    expect(scheduled).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect((await historyOf(member.id)).map(([, change]) => change)).toEqual([null, 'cancel_scheduled']);

    e2e.sandbox.clock.set(`${member.current_period_end}T12:00:00.000Z`);
    expect((await shop.memberships.retrieve(member.id)).status).toBe('active');
    e2e.sandbox.clock.advance('1d');
    expect((await shop.memberships.retrieve(member.id)).status).toBe('cancelled');
    expect((await historyOf(member.id)).at(-1)).toEqual(['membership.updated', 'cancelled']);
  });
});

conformanceTest(e2e, 6);
