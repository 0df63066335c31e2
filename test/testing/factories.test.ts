// buildEvent / buildRecord / signedDelivery of shop-mgmt/testing: every event type's payload passes its
// generated schema, overrides are checked field by field, and a signed delivery reaches a webhook handler
// (web Request and Node IncomingMessage) that verifies it and routes it by type.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { EVENT_TYPES } from '../../src/generated/event-types.js';
import { EVENT_PAYLOAD_SCHEMAS } from '../../src/generated/events.js';
import * as Api from '../../src/generated/schemas.js';
import {
  buildEvent,
  buildRecord,
  RECORD_SCHEMAS,
  SandboxUsageError,
  signedDelivery,
} from '../../src/testing/index.js';
import { createWebhookHandler, type ShopEventOf } from '../../src/webhooks/index.js';

const SECRET = 'whsec_factory_test';

describe('buildEvent', () => {
  it.each(EVENT_TYPES)('%s: an envelope whose payload passes the type schema', (type) => {
    const event = buildEvent(type);
    expect(event).toMatchObject({ object: 'event', type, api_version: '2026-09-24', livemode: false });
    expect(event.id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(Api.EventSchema.safeParse(event).success).toBe(true);
    const checked = EVENT_PAYLOAD_SCHEMAS[type].safeParse(event.data.object);
    expect(checked.success, JSON.stringify(checked.error?.issues[0])).toBe(true);
  });

  it('takes the status its type implies, and lays overrides over the sample, nested ones included', () => {
    const event = buildEvent('range.reservation.booked', {
      id: 'evt_fixed',
      createdAt: '2026-10-01T15:00:00Z',
      overrides: { id: 42, party_size: 3, contact: { email: 'dana@example.com' }, customer_ids: [7, 8] },
    });
    expectTypeOf(event).toEqualTypeOf<ShopEventOf<'range.reservation.booked'>>();
    expectTypeOf(event.data.object.party_size).toEqualTypeOf<number>();
    expect(event.id).toBe('evt_fixed');
    expect(event.created_at).toBe('2026-10-01T15:00:00.000Z');
    expect(event.data.object).toMatchObject({
      object: 'range_reservation',
      id: 42,
      status: 'booked',
      party_size: 3,
      customer_ids: [7, 8],
    });
    expect(event.data.object.contact.email).toBe('dana@example.com');
    expect(buildEvent('range.rental.checked_out').data.object.status).toBe('checked_out');
    // A nullable object given fields is filled from its schema first, so the result still passes.
    const sale = buildEvent('sale.completed', { overrides: { customer: { email: 'x@example.com' } } });
    expect(EVENT_PAYLOAD_SCHEMAS['sale.completed'].safeParse(sale.data.object).success).toBe(true);
    expect(sale.data.object.customer?.email).toBe('x@example.com');
  });

  it('refuses a field its schema does not have, a value it does not take, and an unknown type', () => {
    // @ts-expect-error a misspelt field does not compile either
    expect(() => buildEvent('range.reservation.booked', { overrides: { party_sise: 2 } })).toThrow(
      /party_sise/,
    );
    expect(() => buildEvent('membership.updated', { overrides: { chnage: 'renewed' } as never })).toThrow(
      /membership\.updated.*has no field "chnage"/,
    );
    expect(() => buildEvent('membership.updated', { overrides: { price_cents: 'ten' as never } })).toThrow(
      SandboxUsageError,
    );
    expect(() => buildEvent('membership.updated', { overrides: { price_cents: 'ten' as never } })).toThrow(
      /price_cents .*not a whole number|price_cents/,
    );
    expect(() => buildEvent('range.lane.repainted' as never)).toThrow(/not a known event type/);
    expect(() => buildEvent('ping', { id: 'nope' })).toThrow(/begins evt_/);
  });
});

describe('buildRecord', () => {
  it.each(Object.keys(RECORD_SCHEMAS) as (keyof typeof RECORD_SCHEMAS)[])('%s passes its schema', (kind) => {
    const record = buildRecord(kind);
    expect(RECORD_SCHEMAS[kind].safeParse(record).success).toBe(true);
  });

  it('names every record kind after its generated schema, and covers every event payload record', () => {
    const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
    for (const [kind, schema] of Object.entries(RECORD_SCHEMAS)) {
      const name = Object.entries(Api).find(([, value]) => value === schema)![0];
      expect(snake(name.replace(/Schema$/, ''))).toBe(kind);
    }
    const kinds = new Set<unknown>(Object.values(RECORD_SCHEMAS));
    const payloads = Object.values(EVENT_PAYLOAD_SCHEMAS).filter((schema) =>
      Object.entries(Api).some(([name, value]) => value === schema && !/Payload|Deleted|Ping/.test(name)),
    );
    for (const schema of payloads) expect(kinds.has(schema)).toBe(true);
  });

  it('is typed by kind and takes overrides', () => {
    const membership = buildRecord('membership', { status: 'past_due', customer_id: 8 });
    expectTypeOf(membership).toEqualTypeOf<Api.Membership>();
    expect(membership).toMatchObject({ object: 'membership', status: 'past_due', customer_id: 8 });
    expect(() => buildRecord('membership', { members: [{ role: 5 }] } as never)).toThrow(SandboxUsageError);
    expect(() => buildRecord('lane' as never)).toThrow(/not a record kind/);
  });
});

describe('signedDelivery', () => {
  function receiver() {
    const seen: string[] = [];
    const handler = createWebhookHandler({ secret: SECRET, dedupe: false })
      .on('range.reservation.booked', (event) => {
        seen.push(`booked ${event.data.object.id}`);
      })
      .on('membership.payment_failed', (event) => {
        seen.push(`failed ${event.data.object.change}`);
      });
    return { handler, seen };
  }

  it('signs as the service does: a web Request the handler verifies and routes by type', async () => {
    const { handler, seen } = receiver();
    const booked = buildEvent('range.reservation.booked', { overrides: { id: 5001 } });
    const delivery = await signedDelivery(booked, { secret: SECRET, attempt: 2 });
    expect(delivery.headers).toMatchObject({
      'Service-Event': 'range.reservation.booked',
      'Service-Event-Id': booked.id,
      'Service-Attempt': '2',
    });
    expect(delivery.headers['Service-Delivery-Id']).toMatch(/^whd_/);
    expect(delivery.body).toBe(JSON.stringify(booked));
    expect((await handler(delivery.request())).status).toBe(200);
    const failed = buildEvent('membership.payment_failed', { overrides: { change: 'payment_failed' } });
    expect((await handler((await signedDelivery(failed, { secret: SECRET })).request())).status).toBe(200);
    expect(seen).toEqual(['booked 5001', 'failed payment_failed']);
    // The wrong secret is refused, as a real delivery with it would be.
    const forged = await signedDelivery(booked, { secret: 'whsec_someone_else' });
    expect((await handler(forged.request())).status).toBe(400);
  });

  it('gives a Node IncomingMessage for handler.node and Express routes', async () => {
    const { handler, seen } = receiver();
    const delivery = await signedDelivery(buildEvent('range.reservation.booked', { overrides: { id: 9 } }), {
      secret: SECRET,
    });
    const request = await delivery.nodeRequest('http://localhost:3000/webhooks/shop?x=1');
    expect(request.url).toBe('/webhooks/shop?x=1');
    expect(request.headers['service-event']).toBe('range.reservation.booked');
    const response = {
      statusCode: 0,
      body: '',
      setHeader: () => undefined,
      end(body: string) {
        this.body = body;
      },
    };
    await handler.node(request, response);
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual(['booked 9']);
  });
});
