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
    server.use(
      http.post(`${BASE_URL}/v1/range/reservations`, ({ request }) =>
        HttpResponse.json(ok(reservation(1)), {
          status: 201,
          headers:
            request.headers.get('idempotency-key') === 'again' ? { 'Idempotent-Replayed': 'true' } : {},
        }),
      ),
    );
    const shop = testClient();
    const first = await shop
      .request(createReservation, { body: { party_size: 2 } }, { idempotencyKey: 'once' })
      .withResponse();
    const replay = await shop
      .request(createReservation, { body: { party_size: 2 } }, { idempotencyKey: 'again' })
      .withResponse();
    expect(first.idempotentReplayed).toBe(false);
    expect(replay.idempotentReplayed).toBe(true);
    expect(replay.data.id).toBe(1);
  });
});
