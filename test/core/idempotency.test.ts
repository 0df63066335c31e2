import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ParamsValidationError } from '../../src/core/errors/index.js';
import {
  BASE_URL,
  cancelReservation,
  createReservation,
  failure,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  updateLocation,
  useMswServer,
} from './support.js';

const server = useMswServer();
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Records the Idempotency-Key of every request; `fail` first answers fail with these responses. */
function recordKeys(...fail: Array<() => Response>): Array<string | null> {
  const keys: Array<string | null> = [];
  server.use(
    http.all(`${BASE_URL}/v1/*`, ({ request }) => {
      keys.push(request.headers.get('idempotency-key'));
      const failing = fail[keys.length - 1];
      return failing ? failing() : HttpResponse.json(ok(reservation(1, { id: 1 })), { status: 201 });
    }),
  );
  return keys;
}

describe('Idempotency-Key', () => {
  it('is a generated UUID v4 on every POST, different per call', async () => {
    const keys = recordKeys();
    const shop = testClient();
    await shop.request(createReservation, { body: { party_size: 2 } });
    await shop.request(cancelReservation, { path: { id: 1 } });
    expect(keys[0]).toMatch(UUID_V4);
    expect(keys[1]).toMatch(UUID_V4);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("is the caller's idempotencyKey when given", async () => {
    const keys = recordKeys();
    await testClient().request(
      createReservation,
      { body: { party_size: 2 } },
      { idempotencyKey: 'booking-42' },
    );
    expect(keys).toEqual(['booking-42']);
  });

  it('is the same on every retry of a POST', async () => {
    const keys = recordKeys(
      () => HttpResponse.json(failure('SERVER_ERROR'), { status: 500 }),
      () => HttpResponse.error(),
    );
    await testClient().request(createReservation, { body: { party_size: 2 } });
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(UUID_V4);
  });

  it('is not sent on GET or PATCH', async () => {
    const keys = recordKeys();
    await testClient().request(retrieveReservation, { path: { id: 1 } });
    await testClient().request(updateLocation, { path: { id: 1 }, body: { phone: '555' } });
    expect(keys).toEqual([null, null]);
  });

  it('refuses a caller key over 100 characters before sending anything', async () => {
    const keys = recordKeys();
    const call = testClient().request(
      createReservation,
      { body: { party_size: 2 } },
      { idempotencyKey: 'k'.repeat(101) },
    );
    const error = await rejection(call);
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as ParamsValidationError).details.idempotencyKey?.[0]).toMatch(/at most 100 characters/);
    expect(keys).toHaveLength(0);
    await testClient().request(
      createReservation,
      { body: { party_size: 2 } },
      { idempotencyKey: 'k'.repeat(100) },
    );
    expect(keys).toEqual(['k'.repeat(100)]);
  });

  it('shows Idempotent-Replayed: true as idempotentReplayed in withResponse()', async () => {
    // The server's rule (reference section 8): a key it has already answered is replayed, not acted on.
    const stored = new Map<string, number>();
    server.use(
      http.post(`${BASE_URL}/v1/range/reservations`, ({ request }) => {
        const key = request.headers.get('idempotency-key') ?? '';
        const replayed = stored.has(key);
        if (!replayed) stored.set(key, 100 + stored.size);
        return HttpResponse.json(ok(reservation(stored.get(key) ?? 0)), {
          status: 201,
          headers: replayed ? { 'Idempotent-Replayed': 'true' } : {},
        });
      }),
    );
    const shop = testClient();
    const book = (idempotencyKey: string) =>
      shop.request(createReservation, { body: { party_size: 2 } }, { idempotencyKey }).withResponse();
    const first = await book('booking-1');
    const again = await book('booking-1');
    const other = await book('booking-2');
    expect([first.idempotentReplayed, again.idempotentReplayed, other.idempotentReplayed]).toEqual([
      false,
      true,
      false,
    ]);
    expect(again.data.id).toBe(first.data.id);
    expect(other.data.id).not.toBe(first.data.id);
  });

  it("takes the caller's Idempotency-Key from headers, whatever its case, and keeps it on retries", async () => {
    const keys = recordKeys(() => HttpResponse.json(failure('SERVER_ERROR'), { status: 503 }));
    await testClient().request(
      createReservation,
      { body: { party_size: 2 } },
      { headers: { 'Idempotency-Key': 'from-headers-7' } },
    );
    expect(keys).toEqual(['from-headers-7', 'from-headers-7']);
  });

  it('prefers idempotencyKey over a header, and checks a header key like any other', async () => {
    const keys = recordKeys();
    await testClient().request(
      createReservation,
      { body: { party_size: 2 } },
      { idempotencyKey: 'option-key', headers: { 'idempotency-key': 'header-key' } },
    );
    expect(keys).toEqual(['option-key']);
    const error = await rejection(
      testClient().request(
        createReservation,
        { body: { party_size: 2 } },
        { headers: { 'idempotency-key': 'k'.repeat(101) } },
      ),
    );
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect(keys).toHaveLength(1);
  });
});
