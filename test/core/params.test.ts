import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Operation } from '../../src/core/api/operation.js';
import { ParamsValidationError, ShopError } from '../../src/core/errors/index.js';
import {
  BASE_URL,
  createReservation,
  listReservations,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();

function recordUrls(): string[] {
  const urls: string[] = [];
  server.use(
    http.all(`${BASE_URL}/*`, ({ request }) => {
      urls.push(request.url);
      return HttpResponse.json(ok(reservation(1)));
    }),
  );
  return urls;
}

const retrieveBySku = {
  ...retrieveReservation,
  id: 'products.bySku',
  path: '/v1/products/{sku}',
  pathParams: [{ name: 'sku', type: 'string' }],
  result: z.looseObject({}),
} satisfies Operation;

describe('params are checked before anything is sent', () => {
  it('refuses a body that breaks the operation schema, naming the field like the server would', async () => {
    const urls = recordUrls();
    const error = await rejection(testClient().request(createReservation, { body: { party_size: 'two' } }));
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect(error).toBeInstanceOf(ShopError);
    const params = error as ParamsValidationError;
    expect(params.code).toBe('VALIDATION_ERROR');
    expect(params.is('VALIDATION_ERROR')).toBe(true);
    expect(Object.keys(params.details)).toEqual(['party_size']);
    expect(params.message).toMatch(/^Invalid parameters for range\.reservations\.create: party_size: /);
    expect(urls).toHaveLength(0);
  });

  it('refuses a missing required body field and a query value of the wrong type', async () => {
    const urls = recordUrls();
    const missing = await rejection(testClient().request(createReservation, {}));
    expect((missing as ParamsValidationError).details).toHaveProperty('party_size');
    const query = await rejection(testClient().list(listReservations, { query: { limit: 'many' } }));
    expect((query as ParamsValidationError).details).toHaveProperty('limit');
    expect(urls).toHaveLength(0);
  });

  it('refuses a path id that is not an integer, and a missing one', async () => {
    const urls = recordUrls();
    for (const id of [1.5, 'abc', undefined, '1/../2']) {
      const error = await rejection(testClient().request(retrieveReservation, { path: { id } }));
      expect(error).toBeInstanceOf(ParamsValidationError);
      expect((error as ParamsValidationError).details).toHaveProperty('id');
    }
    expect(urls).toHaveLength(0);
  });

  it('accepts an integer id given as digits', async () => {
    const urls = recordUrls();
    await testClient().request(retrieveReservation, { path: { id: '42' } });
    expect(urls).toEqual([`${BASE_URL}/v1/range/reservations/42`]);
  });

  it('encodes a string path segment whole and refuses dot segments', async () => {
    const urls = recordUrls();
    await testClient().request(retrieveBySku, { path: { sku: 'AR-15/SPECIAL ?#' } });
    expect(urls).toEqual([`${BASE_URL}/v1/products/AR-15%2FSPECIAL%20%3F%23`]);
    for (const sku of ['..', '.', '']) {
      expect(await rejection(testClient().request(retrieveBySku, { path: { sku } }))).toBeInstanceOf(
        ParamsValidationError,
      );
    }
    expect(urls).toHaveLength(1);
  });

  it('refuses a path value it cannot encode (a lone surrogate) instead of throwing a bare URIError', async () => {
    const urls = recordUrls();
    const error = await rejection(testClient().request(retrieveBySku, { path: { sku: 'AR-\ud800' } }));
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as ParamsValidationError).details.sku?.[0]).toMatch(/well-formed/);
    expect((error as ParamsValidationError).operation).toBe('products.bySku');
    expect(urls).toHaveLength(0);
  });

  it('refuses a query value it cannot encode instead of throwing a bare error', async () => {
    const urls = recordUrls();
    const error = await rejection(testClient().list(listReservations, { query: { status: '\ud800' } }));
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect(urls).toHaveLength(0);
  });

  it('refuses a body JSON cannot hold', async () => {
    const loose = { ...createReservation, body: null } satisfies Operation;
    const error = await rejection(testClient().request(loose, { body: { amount: 10n } }));
    expect(error).toBeInstanceOf(ParamsValidationError);
  });
});
