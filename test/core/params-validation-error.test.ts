import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ParamsValidationError,
  ShopApiError,
  ShopError,
} from '../../src/core/errors/index.js';
import { retryDelay } from '../../src/core/transport/retry.js';
import {
  BASE_URL,
  createReservation,
  failure,
  rejection,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const policy = { maxRetries: 5, maxRetryAfterSeconds: 60, backoffBaseMs: 1, backoffCapMs: 5 };

describe('ParamsValidationError is shaped like the server 400 it stands in for', () => {
  it('carries status 400, code VALIDATION_ERROR and per-field details, as BadRequestError does', async () => {
    server.use(
      http.post(`${BASE_URL}/v1/range/reservations`, () =>
        HttpResponse.json(failure('VALIDATION_ERROR', 'Invalid', { party_size: ['must be a number'] }), {
          status: 400,
        }),
      ),
    );
    const fromServer = await rejection(
      testClient().request(createReservation, { body: { party_size: 2 } }, { maxRetries: 0 }),
    );
    const local = await rejection(testClient().request(createReservation, { body: { party_size: 'two' } }));

    expect(fromServer).toBeInstanceOf(BadRequestError);
    expect(local).toBeInstanceOf(ParamsValidationError);
    // One handler serves both: the same three fields, read the same way.
    for (const error of [fromServer, local] as (BadRequestError | ParamsValidationError)[]) {
      expect(error.status).toBe(400);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.is('VALIDATION_ERROR')).toBe(true);
      expect(Object.keys(error.details)).toEqual(['party_size']);
    }
  });

  it('is not an HTTP error: no ShopApiError, no headers, no rate-limit figures', () => {
    const error = new ParamsValidationError({ id: ['must be an integer'] }, 'range.reservations.retrieve');
    expect(error.status).toBe(400);
    expect(error).toBeInstanceOf(ShopError);
    expect(error).not.toBeInstanceOf(ShopApiError);
    expect(error).not.toBeInstanceOf(BadRequestError);
    expect(error).not.toHaveProperty('headers');
    expect(error).not.toHaveProperty('rateLimit');
  });

  it('is never retried', () => {
    const error = new ParamsValidationError({ body: ['cannot be sent as JSON'] });
    expect(retryDelay(error, 1, policy)).toBeNull();
  });

  it('sends nothing and logs no HTTP status, even with retries allowed', async () => {
    const sent: string[] = [];
    const lines: string[] = [];
    const push = (line: string) => lines.push(line);
    server.use(
      http.all(`${BASE_URL}/*`, ({ request }) => {
        sent.push(request.url);
        return HttpResponse.json({});
      }),
    );
    const shop = testClient({
      logger: { debug: push, info: push, warn: push, error: push },
      logLevel: 'debug',
    });
    const error = await rejection(
      shop.request(retrieveReservation, { path: { id: 'abc' } }, { maxRetries: 5 }),
    );
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect(sent).toEqual([]);
    expect(lines.filter((line) => /HTTP 400|retry/i.test(line))).toEqual([]);
  });
});
