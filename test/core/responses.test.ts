import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  ResponseValidationError,
  ShopApiError,
  UnprocessableEntityError,
} from '../../src/core/errors/index.js';
import {
  API_KEY,
  BASE_URL,
  failure,
  listReservations,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const RESERVATION_URL = `${BASE_URL}/v1/range/reservations/:id`;

function answer(response: () => Response): void {
  server.use(http.get(RESERVATION_URL, response), http.get(`${BASE_URL}/v1/range/reservations`, response));
}

const retrieve = (options = {}) =>
  testClient({ maxRetries: 0, ...options }).request(retrieveReservation, { path: { id: 1 } });

describe('the success envelope', () => {
  it('resolves to `data`, validated, with unknown fields kept', async () => {
    answer(() => HttpResponse.json(ok(reservation(1, { lane_color: 'blue' }))));
    const result = await retrieve();
    expect(result).toEqual(reservation(1, { lane_color: 'blue' }));
    expect(result.status).toBe('booked');
  });

  it('accepts an enum value the SDK does not know', async () => {
    answer(() => HttpResponse.json(ok(reservation(1, { status: 'waitlisted' }))));
    expect((await retrieve()).status).toBe('waitlisted');
  });

  it('raises ResponseValidationError naming the field path when `data` breaks the schema', async () => {
    answer(() => HttpResponse.json(ok(reservation(1, { party_size: 'two' }))));
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(ResponseValidationError);
    const validation = error as ResponseValidationError;
    expect(validation.operation).toBe('range.reservations.retrieve');
    expect(validation.issues[0]?.path).toEqual(['data', 'party_size']);
    expect(validation.message).toMatch(/range\.reservations\.retrieve .* at data\.party_size: /);
    expect(validation.status).toBe(200);
  });

  it('names the item index when one record of a page breaks the schema', async () => {
    answer(() =>
      HttpResponse.json(
        ok([reservation(1), reservation(2, { contact: { name: 3, email: null } })], {
          has_more: false,
          next_cursor: null,
        }),
      ),
    );
    const error = await rejection(testClient().list(listReservations));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain('data[1].contact.name');
  });

  it.each([
    [
      'HTML',
      () => new HttpResponse('<html>maintenance</html>', { headers: { 'content-type': 'text/html' } }),
    ],
    ['an empty body', () => new HttpResponse(null, { status: 200 })],
    ['JSON without the envelope', () => HttpResponse.json({ id: 1 })],
    ['an error envelope', () => HttpResponse.json(failure('NOT_FOUND'))],
  ])('raises InvalidResponseError for a 2xx with %s', async (_name, response) => {
    answer(response);
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).status).toBe(200);
  });

  it('raises InvalidResponseError for a list whose meta lacks has_more or a next cursor', async () => {
    answer(() => HttpResponse.json(ok([reservation(1)], { has_more: true, next_cursor: null })));
    expect(await rejection(testClient().list(listReservations))).toBeInstanceOf(InvalidResponseError);
    answer(() => HttpResponse.json(ok([reservation(1)])));
    expect(await rejection(testClient().list(listReservations))).toBeInstanceOf(InvalidResponseError);
  });
});

describe('the error envelope', () => {
  it('becomes the error class of its status with code, message, details, headers and rate-limit figures', async () => {
    answer(() =>
      HttpResponse.json(failure('SESSION_FULL', 'Only 1 seat left', { seats_left: 1 }), {
        status: 409,
        headers: {
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '12',
          'x-ratelimit-reset': '1790000000',
        },
      }),
    );
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      status: 409,
      code: 'SESSION_FULL',
      message: '409 SESSION_FULL: Only 1 seat left',
      details: { seats_left: 1 },
      rateLimit: { limit: 60, remaining: 12, reset: 1790000000, dailyLimit: null, dailyRemaining: null },
    });
    expect((error as ConflictError).headers.get('x-ratelimit-remaining')).toBe('12');
  });

  it('gives an unknown code the class of its status', async () => {
    answer(() => HttpResponse.json(failure('LANE_ON_FIRE'), { status: 422 }));
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as ShopApiError).code).toBe('LANE_ON_FIRE');
  });

  it('gives a status without a class of its own the base ShopApiError', async () => {
    answer(() => HttpResponse.json(failure('GONE'), { status: 410 }));
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(ShopApiError);
    expect((error as ShopApiError).status).toBe(410);
  });

  it('sets details to {} when the server sends none', async () => {
    answer(() => HttpResponse.json(failure('NOT_FOUND'), { status: 404 }));
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).details).toEqual({});
  });

  it('types details through is(): the VALIDATION_ERROR field map', async () => {
    answer(() =>
      HttpResponse.json(failure('VALIDATION_ERROR', 'Invalid', { starts_at: ['is required'] }), {
        status: 400,
      }),
    );
    const error = await rejection(retrieve());
    if (!(error instanceof ShopApiError) || !error.is('VALIDATION_ERROR'))
      throw new Error('expected VALIDATION_ERROR');
    const messages: string[] | undefined = error.details.starts_at;
    expect(messages).toEqual(['is required']);
    expect(error.is('NOT_FOUND')).toBe(false);
  });
});

describe('a non-2xx response without the envelope', () => {
  it("raises its status's class with code null and the start of the body (a proxy's HTML 502)", async () => {
    const page = `<html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(5000)}</body></html>`;
    answer(
      () =>
        new HttpResponse(page, {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'content-type': 'text/html' },
        }),
    );
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(InternalServerError);
    const api = error as InternalServerError;
    expect(api.status).toBe(502);
    expect(api.code).toBeNull();
    expect(api.message).toContain('502 Bad Gateway without an error envelope');
    expect(api.message).toContain('<title>502 Bad Gateway</title>');
    expect(api.message.length).toBeLessThan(400);
  });

  it('keeps the API key out of the message when a proxy echoes the request back', async () => {
    answer(() => new HttpResponse(`denied: Authorization: Bearer ${API_KEY} (${API_KEY})`, { status: 401 }));
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).not.toContain(API_KEY);
    expect((error as Error).message).toContain('[redacted]');
  });

  it('keeps the API key out of the message of an error envelope too', async () => {
    answer(() => HttpResponse.json(failure('INVALID_API_KEY', `Unknown key ${API_KEY}`), { status: 401 }));
    const error = await rejection(retrieve());
    expect((error as Error).message).not.toContain(API_KEY);
  });
});

describe('rate-limit figures on errors the API did not answer with', () => {
  const headers = {
    'X-RateLimit-Limit': '60',
    'X-RateLimit-Remaining': '12',
    'X-RateLimit-Reset': '1790000060',
    'X-RateLimit-Daily-Limit': '10000',
    'X-RateLimit-Daily-Remaining': '9120',
  };
  const figures = { limit: 60, remaining: 12, reset: 1790000060, dailyLimit: 10000, dailyRemaining: 9120 };

  it.each([
    ['a 2xx that is not JSON', () => new HttpResponse('<html>maintenance</html>', { status: 200, headers })],
    ['a 2xx that is not the envelope', () => HttpResponse.json({ id: 1 }, { headers })],
  ])('are on the InvalidResponseError of %s, parsed as on ShopApiError', async (_name, response) => {
    answer(response);
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).rateLimit).toEqual(figures);
  });

  it('are on the InvalidResponseError of a list whose meta is unusable', async () => {
    answer(() => HttpResponse.json(ok([reservation(1)], { has_more: true }), { headers }));
    const error = await rejection(testClient().list(listReservations));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).rateLimit).toEqual(figures);
  });

  it('are on a ResponseValidationError, and null where the response had no header', async () => {
    answer(() => HttpResponse.json(ok(reservation(1, { party_size: 'two' })), { headers }));
    const error = await rejection(retrieve());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).rateLimit).toEqual(figures);

    answer(() => HttpResponse.json(ok(reservation(1, { party_size: 'two' }))));
    const bare = (await rejection(retrieve())) as ResponseValidationError;
    expect(bare.rateLimit).toEqual({
      limit: null,
      remaining: null,
      reset: null,
      dailyLimit: null,
      dailyRemaining: null,
    });
  });
});
