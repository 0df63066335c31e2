// Idempotency (reference section 8) end to end: the SDK's Idempotency-Key on every POST, the sandbox's stored
// answers, and the retries that rely on them after lost answers and server faults.
import { describe, expect, it } from 'vitest';
import { ConflictError, type ShopClient, UnprocessableEntityError } from '../../src/index.js';
import { RETRY_BACKOFF } from '../../src/internal/test-hooks.js';
import { at, conformanceTest, failure, useE2E } from './support/harness.js';
import { until } from './support/wait.js';

const e2e = useE2E();
const BOOKINGS = /^\/v1\/range\/reservations$/;

let nextHour = 0;
/** A lane booking body for a window no other test in this file uses (rifle lane 1, day 3). */
function freshBooking(extra: Record<string, unknown> = {}) {
  const hour = nextHour++;
  return {
    resource_ids: [1],
    starts_at: at(hour, 3),
    ends_at: at(hour + 1, 3),
    party_size: 2,
    customer_id: 6,
    ...extra,
  };
}

/** API bookings of that lane window (every key sees them all). */
async function bookingsOf(shop: ShopClient, body: { starts_at: string }) {
  const found = await shop.range.reservations
    .list({ from: body.starts_at, to: body.starts_at, source: 'api' })
    .toArray();
  return found.filter((reservation) => reservation.lines.some((line) => line.resource_id === 1));
}

/** Resolves once the first request has claimed its Idempotency-Key on the sandbox and is being held. */
function claimed(): Promise<void> {
  return until(() => e2e.sandbox.world.idempotency.inFlight > 0, 'the first request holds its key');
}

function postsSince(count: number) {
  return e2e.recorder.to('POST', BOOKINGS).slice(count);
}

describe('Idempotency-Key end to end', () => {
  it('replays the stored booking for the same key and body, flagged idempotentReplayed', async () => {
    const shop = e2e.client();
    const body = freshBooking({ external_reference: 'web-1' });
    const first = await shop.range.reservations.create(body, { idempotencyKey: 'book-web-1' }).withResponse();
    const again = await shop.range.reservations.create(body, { idempotencyKey: 'book-web-1' }).withResponse();

    expect(first.idempotentReplayed).toBe(false);
    expect(again.idempotentReplayed).toBe(true);
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.data).toEqual(first.data);
    expect(await bookingsOf(shop, body)).toHaveLength(1);
  });

  it('refuses the same key with a different body: 422 IDEMPOTENCY_MISMATCH, nothing booked', async () => {
    const shop = e2e.client();
    const body = freshBooking();
    await shop.range.reservations.create(body, { idempotencyKey: 'book-mismatch' });
    const error = await failure(
      shop.range.reservations.create({ ...body, party_size: 1 }, { idempotencyKey: 'book-mismatch' }),
    );
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: 'IDEMPOTENCY_MISMATCH' });
    expect(await bookingsOf(shop, body)).toHaveLength(1);
  });

  it('retries a booking whose answer was a 500 after it was made, and gets the stored booking', async () => {
    const shop = e2e.client();
    const before = e2e.recorder.to('POST', BOOKINGS).length;
    const body = freshBooking();
    e2e.sandbox.faults.next({ status: 500, when: 'after', method: 'POST', path: '/v1/range/reservations' });

    const booked = await shop.range.reservations.create(body).withResponse();

    const attempts = postsSince(before);
    expect(attempts.map((attempt) => attempt.status)).toEqual([500, 201]);
    const [firstKey, retryKey] = attempts.map((attempt) => attempt.requestHeaders.get('Idempotency-Key'));
    expect(firstKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(retryKey).toBe(firstKey);
    expect(booked.idempotentReplayed).toBe(true);
    expect(await bookingsOf(shop, body)).toHaveLength(1);
  });

  it('retries a booking whose connection dropped after it was made, without booking twice', async () => {
    const shop = e2e.client();
    const before = e2e.recorder.to('POST', BOOKINGS).length;
    const body = freshBooking();
    e2e.sandbox.faults.next({ reset: true, when: 'after', method: 'POST', path: '/v1/range/reservations' });

    const booked = await shop.range.reservations
      .create(body, { idempotencyKey: 'book-dropped' })
      .withResponse();

    expect(e2e.recorder.dropped.at(-1)).toEqual({ method: 'POST', path: '/v1/range/reservations' });
    expect(postsSince(before).map((attempt) => attempt.status)).toEqual([201]);
    expect(booked.idempotentReplayed).toBe(true);
    expect(await bookingsOf(shop, body)).toHaveLength(1);
  });

  it('does not store a 5xx: a retry after a 500 that never reached the shop books for the first time', async () => {
    const shop = e2e.client();
    const before = e2e.recorder.to('POST', BOOKINGS).length;
    const body = freshBooking();
    e2e.sandbox.faults.next({ status: 500, method: 'POST', path: '/v1/range/reservations' });

    const booked = await shop.range.reservations.create(body, { idempotencyKey: 'book-500' }).withResponse();

    expect(postsSince(before).map((attempt) => attempt.status)).toEqual([500, 201]);
    expect(booked.idempotentReplayed).toBe(false);
    expect(await bookingsOf(shop, body)).toHaveLength(1);
  });

  it("answers 409 IDEMPOTENCY_IN_PROGRESS while the first call runs; a client that backs off gets the first call's booking", async () => {
    const apiKey = e2e.key();
    const body = freshBooking();
    // `when: 'after'`: the shop has made the booking and holds the answer, so the key is in flight.
    e2e.sandbox.faults.next({ delayMs: 500, when: 'after', method: 'POST', path: '/v1/range/reservations' });
    const first = e2e.client({ apiKey }).range.reservations.create(body, { idempotencyKey: 'book-busy' });
    try {
      await claimed();
      const impatient = await failure(
        e2e
          .client({ apiKey, maxRetries: 0 })
          .range.reservations.create(body, { idempotencyKey: 'book-busy' }),
      );
      expect(impatient).toBeInstanceOf(ConflictError);
      expect(impatient).toMatchObject({ status: 409, code: 'IDEMPOTENCY_IN_PROGRESS' });

      const patient = await e2e
        .client({ apiKey, maxRetries: 30, [RETRY_BACKOFF]: { baseMs: 50, capMs: 100 } })
        .range.reservations.create(body, { idempotencyKey: 'book-busy' })
        .withResponse();
      expect(patient.idempotentReplayed).toBe(true);
      expect(patient.data.id).toBe((await first).id);
      expect(await bookingsOf(e2e.client({ apiKey }), body)).toHaveLength(1);
    } finally {
      await Promise.allSettled([first]);
    }
  });

  // docs/testing.md ("Faults"): a plain delay is a slow shop; the request holds its Idempotency-Key while it
  // is slow, so a concurrent retry gets 409 IDEMPOTENCY_IN_PROGRESS and the slow call is the one that books.
  it('holds the key in flight during a plain delayMs fault, as docs/testing.md says', async () => {
    const apiKey = e2e.key();
    const body = freshBooking();
    e2e.sandbox.faults.next({ delayMs: 500, method: 'POST', path: '/v1/range/reservations' });
    const first = e2e.client({ apiKey }).range.reservations.create(body, { idempotencyKey: 'book-delayed' });
    try {
      await claimed();
      const second = e2e
        .client({ apiKey, maxRetries: 0 })
        .range.reservations.create(body, { idempotencyKey: 'book-delayed' });
      expect(await failure(second)).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
      const slow = await first.withResponse();
      expect(slow.idempotentReplayed).toBe(false);
      expect(await bookingsOf(e2e.client({ apiKey }), body)).toHaveLength(1);
    } finally {
      await Promise.allSettled([first]);
    }
  });

  it('scopes keys to the API key: another key with the same Idempotency-Key is a new request', async () => {
    const body = freshBooking();
    await e2e.client().range.reservations.create(body, { idempotencyKey: 'shared-key' });
    const error = await failure(
      e2e.client().range.reservations.create(body, { idempotencyKey: 'shared-key' }),
    );
    // Not replayed: it ran, and met the first booking on the lane.
    expect(error).toMatchObject({ status: 409, code: 'RESOURCE_UNAVAILABLE' });
  });

  it('forgets a key after 24 hours: the same cancel runs again and meets INVALID_STATE', async () => {
    const apiKey = e2e.key();
    const shop = e2e.client({ apiKey });
    const booked = await shop.range.reservations.create(freshBooking());
    await shop.range.reservations.cancel(booked.id, { reason: 'Rain' }, { idempotencyKey: 'cancel-once' });
    const replay = await shop.range.reservations
      .cancel(booked.id, { reason: 'Rain' }, { idempotencyKey: 'cancel-once' })
      .withResponse();
    expect(replay.idempotentReplayed).toBe(true);

    e2e.sandbox.clock.advance('24h');
    e2e.sandbox.clock.advance('1s');
    const error = await failure(
      shop.range.reservations.cancel(booked.id, { reason: 'Rain' }, { idempotencyKey: 'cancel-once' }),
    );
    expect(error).toMatchObject({ status: 409, code: 'INVALID_STATE' });
  });
});

conformanceTest(e2e, 3);
