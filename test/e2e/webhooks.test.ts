// Webhook delivery end to end (reference section 6): changes made through ShopClient and at the register are
// delivered by the sandbox to real receivers on 127.0.0.1, verified by the SDK's handler (Node adapter) and
// by verifyWebhook, retried after a failing receiver, deduplicated on resend, and found again in the feed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  type ShopEvent,
  verifyWebhook,
  type WebhookHandler,
} from '../../src/webhooks/index.js';
import { conformanceTest, spec, useE2E } from './support/harness.js';
import { type RawDelivery, type Receiver, serveHandler, startReceiver } from './support/receiver.js';
import { checkEvent } from './support/recorder.js';

// A fixed start, like every e2e file; the handler reads the sandbox clock (its `now` option) to check the
// signature's timestamp, so retries hours later on that clock verify as they would on a real receiver.
const e2e = useE2E();
const TYPES = [
  'range.reservation.booked',
  'range.reservation.checked_in',
  'range.reservation.completed',
  'range.rental.checked_out',
  'range.rental.checked_in',
  'range.rental.out_of_service',
];

/** What the partner's code saw: every call of onEvent, and whether it threw. */
const handled: { event: ShopEvent; attempt: number | null; threw: boolean }[] = [];
let failNext = 0;
let handlerEndpoint: { id: string; secret: string };
let rawEndpoint: { id: string; secret: string };
let handlerReceiver: Receiver;
let raw: Receiver & { received: RawDelivery[] };

let handler: WebhookHandler | undefined;

beforeAll(async () => {
  raw = await startReceiver();
  rawEndpoint = e2e.sandbox.webhooks.addEndpoint({ url: raw.url, types: TYPES });
  // The endpoint's secret exists only once the endpoint is added, and the endpoint needs the receiver's URL:
  // the receiver starts first and reaches the handler made right after.
  handlerReceiver = await serveHandler((request, response) => handler!.node(request, response));
  handlerEndpoint = e2e.sandbox.webhooks.addEndpoint({ url: handlerReceiver.url, types: TYPES });
  handler = createWebhookHandler({
    secret: handlerEndpoint.secret,
    onEvent: (event, context) => {
      const threw = failNext > 0;
      handled.push({ event, attempt: context.delivery?.attempt ?? null, threw });
      if (threw) {
        failNext--;
        throw new Error('the partner database is down');
      }
    },
  });
});
afterAll(async () => {
  await Promise.all([raw?.close(), handlerReceiver?.close()]);
});

function hoursFromNow(hours: number): string {
  const now = e2e.sandbox.clock.nowMs();
  return new Date(now - (now % 3_600_000) + hours * 3_600_000).toISOString();
}

function attemptsOf(endpoint: { id: string }) {
  return e2e.sandbox.webhooks.deliveries().filter((attempt) => attempt.endpointId === endpoint.id);
}

describe('webhook delivery to real receivers', () => {
  it('delivers a booking, its check-in and the closed visit, verified by the handler and verifyWebhook', async () => {
    const shop = e2e.client();
    const window = { starts_at: hoursFromNow(30), ends_at: hoursFromNow(31) };
    const [free] = await shop.range.availability.list({ ...window, party_size: 2 });
    const booked = await shop.range.reservations.create({
      ...window,
      resource_ids: [free!.resource.id],
      party_size: 2,
      customer_id: 1,
    });
    await shop.range.reservations.checkIn(booked.id);
    e2e.sandbox.register.closeVisit(booked.id);

    const attempts = await e2e.sandbox.webhooks.flush();

    expect(attempts.every((attempt) => attempt.status === 'succeeded' && attempt.httpStatus === 200)).toBe(
      true,
    );
    const expected = [
      'range.reservation.booked',
      'range.reservation.checked_in',
      'range.reservation.completed',
    ];
    const processed = handled.filter(
      (entry) => (entry.event.data.object as { id?: number }).id === booked.id,
    );
    expect(processed.map((entry) => entry.event.type).sort()).toEqual([...expected].sort());

    // The same events reached the raw receiver; verify them with the endpoint's secret and the spec.
    const mine = raw.received.filter((delivery) => JSON.parse(delivery.body).data.object.id === booked.id);
    expect(mine).toHaveLength(3);
    for (const delivery of mine) {
      const event = await verifyWebhook({
        body: delivery.body,
        headers: delivery.headers,
        secret: rawEndpoint.secret,
      });
      expect(delivery.headers['service-event-id']).toBe(event.id);
      expect(delivery.headers['service-event']).toBe(event.type);
      expect(delivery.headers['service-attempt']).toBe('1');
      expect(checkEvent(spec(), JSON.parse(delivery.body))).toEqual([]);
    }
    // A delivery signed for one endpoint does not verify with another endpoint's secret.
    await expect(
      verifyWebhook({
        body: mine[0]!.body,
        headers: mine[0]!.headers,
        secret: handlerEndpoint.secret,
      }),
    ).rejects.toMatchObject({ reason: 'signature_mismatch' });
  });

  it('retries a delivery the receiver failed (500) a minute later, with the same event id, and processes it once', async () => {
    failNext = 1;
    e2e.sandbox.register.rentOut(1, { customerId: 2 });
    const before = handled.length;

    const first = (await e2e.sandbox.webhooks.flush()).filter((a) => a.endpointId === handlerEndpoint.id);
    expect(first).toEqual([expect.objectContaining({ attempt: 1, status: 'failed', httpStatus: 500 })]);
    expect(await e2e.sandbox.webhooks.flush()).toEqual([]);

    e2e.sandbox.clock.advance('1m');
    const retry = await e2e.sandbox.webhooks.flush();

    expect(retry).toEqual([
      expect.objectContaining({
        endpointId: handlerEndpoint.id,
        eventId: first[0]!.eventId,
        deliveryId: first[0]!.deliveryId,
        attempt: 2,
        status: 'succeeded',
      }),
    ]);
    const calls = handled.slice(before);
    expect(calls.map((call) => [call.event.id, call.attempt, call.threw])).toEqual([
      [first[0]!.eventId, 1, true],
      [first[0]!.eventId, 2, false],
    ]);
  });

  it('verifies a retry made hours later on the sandbox clock: the handler reads that clock, not the wall', async () => {
    failNext = 4;
    const gun = e2e.sandbox.world.state.range.rentals.find((rental) => rental.status === 'available')!;
    e2e.sandbox.register.rentOut(gun.id, { customerId: 3 });
    const before = handled.length;

    const attempts = [];
    for (const wait of [0, '1m', '5m', '30m', '2h']) {
      if (wait !== 0) e2e.sandbox.clock.advance(wait);
      attempts.push(
        ...(await e2e.sandbox.webhooks.flush()).filter((a) => a.endpointId === handlerEndpoint.id),
      );
    }

    // Four answers of 500 (the partner's code threw), then 200 two and a half hours after the change.
    expect(attempts.map((attempt) => [attempt.attempt, attempt.httpStatus])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
      [5, 200],
    ]);
    expect(handled.slice(before).map((call) => [call.attempt, call.threw])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, true],
      [5, false],
    ]);
  });

  it('acknowledges a resend of a processed event without handling it again (dedupe on the event id)', async () => {
    const delivered = attemptsOf(handlerEndpoint).find((attempt) => attempt.status === 'succeeded')!;
    const before = handled.length;

    const resent = e2e.sandbox.webhooks.resend(delivered.deliveryId);
    const attempts = await e2e.sandbox.webhooks.flush();

    expect(resent).not.toBe(delivered.deliveryId);
    expect(attempts).toEqual([
      expect.objectContaining({
        deliveryId: resent,
        eventId: delivered.eventId,
        attempt: 1,
        httpStatus: 200,
      }),
    ]);
    expect(handled.length).toBe(before);
  });

  it('keeps verifying through a secret rotation: both signatures ride along during the grace period', async () => {
    const oldSecret = rawEndpoint.secret;
    const newSecret = e2e.sandbox.webhooks.rotateSecret(rawEndpoint.id, { graceHours: 24 });
    const seen = raw.received.length;
    e2e.sandbox.register.returnRental(1, { condition: 'Damaged: bent sight', roundsFired: 50 });
    await e2e.sandbox.webhooks.flush();

    const deliveries = raw.received.slice(seen);
    // Both are sent at once; which arrives first is up to the network, as on the real service.
    expect(deliveries.map((delivery) => JSON.parse(delivery.body).type).sort()).toEqual([
      'range.rental.checked_in',
      'range.rental.out_of_service',
    ]);
    for (const delivery of deliveries) {
      expect(String(delivery.headers['service-signature']).match(/v1=/g)).toHaveLength(2);
      for (const secret of [oldSecret, newSecret]) {
        const event = await verifyWebhook({
          body: delivery.body,
          headers: delivery.headers,
          secret,
        });
        expect(event.type).toMatch(/^range\.rental\./);
      }
    }
  });

  it('records the delivered events in the feed under the same ids', async () => {
    const delivered = new Set(attemptsOf(handlerEndpoint).map((attempt) => attempt.eventId));
    expect(delivered.size, 'the tests above delivered events').toBeGreaterThan(0);
    const feed = await e2e.client().events.list().toArray();
    const feedIds = new Set(feed.map((event) => event.id));
    expect([...delivered].filter((id) => !feedIds.has(id))).toEqual([]);
  });
});

conformanceTest(e2e, 3);
