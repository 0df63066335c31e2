// Recovery data and the deadline, over a real socket: what a caller needs to re-drive a POST whose outcome
// it never saw, and a total time across attempts and waits.
import { describe, expect, it, vi } from 'vitest';
import { ConnectionError, InternalServerError, TimeoutError } from '../../src/core/errors/index.js';
import { json, useLoopback } from './loopback.js';
import {
  createReservation,
  failure,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
} from './support.js';

const loopback = useLoopback();

describe('recovery data', () => {
  it('gives a POST ending in ConnectionError after its retries its key, so it can be re-driven', async () => {
    // The first attempt is applied server-side, then every answer is lost: the caller never learns.
    const applied = new Map<string, number>();
    loopback.handle((seen, res, req) => {
      const key = String(seen.headers['idempotency-key']);
      if (!applied.has(key)) applied.set(key, 41);
      if (loopback.seen.length <= 3) return req.socket.resetAndDestroy();
      json(res, 201, ok(reservation(applied.get(key) ?? 0)), { 'idempotent-replayed': 'true' });
    });
    const shop = testClient({ baseUrl: loopback.baseUrl });
    const error = await rejection(shop.request(createReservation, { body: { party_size: 2 } }));
    expect(error).toBeInstanceOf(ConnectionError);
    const failed = error as ConnectionError;
    expect(failed.attempts).toBe(3);
    expect(failed.operation).toBe('range.reservations.create');
    expect(failed.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(failed.elapsedMs).toBeGreaterThan(0);
    expect(loopback.seen.map((seen) => seen.headers['idempotency-key'])).toEqual(
      Array(3).fill(failed.idempotencyKey),
    );

    // Later, the reconciler re-drives it with the key the error carried: the first booking, not a second.
    const redriven = await shop
      .request(
        createReservation,
        { body: { party_size: 2 } },
        { idempotencyKey: failed.idempotencyKey ?? '' },
      )
      .withResponse();
    expect(redriven.data.id).toBe(41);
    expect(redriven.idempotentReplayed).toBe(true);
    expect(applied.size).toBe(1);
  });

  it('puts the key, attempts, operation and elapsed time on every result, and the raw response on asResponse()', async () => {
    loopback.handle((_seen, res, _req, index) =>
      index === 0 ? json(res, 503, failure('SERVER_ERROR')) : json(res, 201, ok(reservation(5))),
    );
    const shop = testClient({ baseUrl: loopback.baseUrl });
    const call = shop.request(createReservation, { body: { party_size: 2 } }, { idempotencyKey: 'order-77' });
    const result = await call.withResponse();
    expect(result).toMatchObject({
      idempotencyKey: 'order-77',
      attempts: 2,
      operation: 'range.reservations.create',
    });
    expect(result.elapsedMs).toBeGreaterThan(0);
    const response = await call.asResponse();
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);

    const read = await shop.request(retrieveReservation, { path: { id: 5 } }).withResponse();
    expect(read).toMatchObject({
      idempotencyKey: null,
      attempts: 1,
      operation: 'range.reservations.retrieve',
    });
  });

  it('shows hooks every attempt of a POST retried after a reset, with one key and rising attempts', async () => {
    loopback.handle((_seen, res, req, index) => {
      if (index === 0) return req.socket.resetAndDestroy();
      json(res, 201, ok(reservation(6)));
    });
    const seen: [number, string | null, string | null][] = [];
    const shop = testClient({
      baseUrl: loopback.baseUrl,
      hooks: {
        beforeRequest: [
          (request, options) => {
            const context = options.context as { attempt: number; idempotencyKey: string | null };
            seen.push([context.attempt, context.idempotencyKey, request.headers.get('idempotency-key')]);
          },
        ],
      },
    });
    const result = await shop.request(createReservation, { body: { party_size: 2 } }).withResponse();
    const key = result.idempotencyKey;
    expect(seen).toEqual([
      [1, key, key],
      [2, key, key],
    ]);
    expect(loopback.seen.map((entry) => entry.headers['idempotency-key'])).toEqual([key, key]);
  });

  it('puts the recovery fields on an API error too', async () => {
    loopback.handle((_seen, res) => json(res, 500, failure('SERVER_ERROR')));
    const error = await rejection(
      testClient({ baseUrl: loopback.baseUrl, maxRetries: 1 }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      attempts: 2,
      operation: 'range.reservations.retrieve',
      idempotencyKey: null,
    });
  });
});

describe('deadline', () => {
  it('caps the attempt that would outlive it, failing with a TimeoutError naming the attempts made', async () => {
    let answered = false;
    loopback.handle((_seen, res) =>
      setTimeout(() => {
        answered = true;
        json(res, 200, ok(reservation(1)));
      }, 2_000).unref(),
    );
    const shop = testClient({ baseUrl: loopback.baseUrl, timeout: 5_000, deadline: 300 });
    const started = performance.now();
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).deadline).toBe(300);
    expect((error as Error).message).toBe('Deadline of 300 ms passed after 1 attempt');
    expect(took).toBeGreaterThanOrEqual(280);
    // Cut at the deadline, before the server's answer (timers fire in order, whatever the load).
    expect(answered).toBe(false);
    expect(loopback.seen).toHaveLength(1);
  });

  it('does not take a Retry-After wait that would end past it', async () => {
    loopback.handle((_seen, res) => json(res, 429, failure('RATE_LIMITED'), { 'retry-after': '5' }));
    // Set before the call with the deadline's length: it fires before anything that waits for the deadline.
    let deadlineCame = false;
    const sentinel = setTimeout(() => {
      deadlineCame = true;
    }, 2_000);
    const error = await rejection(
      testClient({ baseUrl: loopback.baseUrl }).request(
        retrieveReservation,
        { path: { id: 1 } },
        { deadline: 2_000 },
      ),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('Deadline of 2000 ms passed after 1 attempt');
    expect(((error as Error).cause as Error).name).toBe('RateLimitError');
    // Failed at once, not after sleeping toward the deadline.
    expect(deadlineCame).toBe(false);
    clearTimeout(sentinel);
    expect(loopback.seen).toHaveLength(1);
  });

  it('spans attempts and back-off: slow failures stop once it has passed', async () => {
    // A slow failure, then an attempt slower than what is left of the deadline: the deadline, not the
    // 10 retries allowed, ends the call, during its second attempt. A count, not a time, so load cannot
    // move it: the first failure comes back long before the deadline.
    loopback.handle((_seen, res, _req, index) =>
      setTimeout(() => json(res, 503, failure('SERVER_ERROR')), index === 0 ? 150 : 5_000).unref(),
    );
    const shop = testClient({ baseUrl: loopback.baseUrl, maxRetries: 10, deadline: 1_000 });
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).attempts).toBe(2);
    expect((error as Error).message).toBe('Deadline of 1000 ms passed after 2 attempts');
    await vi.waitUntil(() => loopback.seen.length >= 2, { timeout: 10_000 });
    expect(loopback.seen).toHaveLength(2);
  });

  it("times out through a caller's fetch too, which gets the attempt's signal on the Request", async () => {
    let answered = false;
    loopback.handle((_seen, res) =>
      setTimeout(() => {
        answered = true;
        json(res, 200, ok(reservation(1)));
      }, 2_000).unref(),
    );
    const signals: AbortSignal[] = [];
    const shop = testClient({
      baseUrl: loopback.baseUrl,
      timeout: 150,
      maxRetries: 0,
      fetch: (input, init) => {
        signals.push((input as Request).signal);
        return globalThis.fetch(input, init);
      },
    });
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).deadline).toBeNull();
    expect(signals[0]?.aborted).toBe(true);
    expect(answered).toBe(false);
  });

  it('is refused when it is not a positive number of milliseconds', () => {
    expect(() => testClient({ deadline: 0 })).toThrow(/deadline must be a positive number/);
  });
});
