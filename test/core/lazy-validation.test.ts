// Schemas and zod load on the first call (a chunk of their own in the ESM build), then answer synchronously.
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { defineOperation, type Operation, type OperationSchemas } from '../../src/core/api/operation.js';
import { ParamsValidationError, ResponseValidationError, ShopError } from '../../src/core/errors/index.js';
import { checker, loadedChecker } from '../../src/core/validation/lazy-validation.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { operations } from '../../src/generated/operations.js';
import {
  BASE_URL,
  ok,
  ReservationSchema,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();

function serve(data: unknown): void {
  server.use(http.get(`${BASE_URL}/v1/range/reservations/:id`, () => HttpResponse.json(ok(data))));
}

/** retrieveReservation with its schemas behind a loader that counts its calls. */
function lazyRetrieve(): { operation: Operation; loads: () => number } {
  let loads = 0;
  const schemas: OperationSchemas = { query: null, body: null, result: ReservationSchema };
  const { result: _result, query: _query, body: _body, ...rest } = retrieveReservation;
  const operation: Operation = {
    ...rest,
    schemas: async () => {
      loads += 1;
      return schemas;
    },
  };
  return { operation, loads: () => loads };
}

describe('schemas loaded on the first call', () => {
  it('loads a generated operation its schemas on its first call, then resolves them synchronously', async () => {
    const op = operations['range.reservations.retrieve'];
    expect(loadedChecker(op)).toBeUndefined();
    serve({ ...reservation(1), contact: { first_name: 'A', last_name: null, email: null, phone: null } });
    await testClient()
      .request(op, { path: { id: 1 } })
      .catch(() => undefined);
    const found = checker(op);
    expect(found).not.toBeInstanceOf(Promise);
    expect((found as Exclude<typeof found, Promise<unknown>>).schemas).toBe(
      OPERATION_SCHEMAS['range.reservations.retrieve'],
    );
  });

  it('calls a loader once however many calls follow, and validates against what it loaded', async () => {
    const { operation, loads } = lazyRetrieve();
    serve(reservation(1));
    const shop = testClient();
    const results = await Promise.all(
      [1, 2, 3].map(() => shop.request(operation as never, { path: { id: 1 } })),
    );
    expect(results.map((r) => (r as { id: number }).id)).toEqual([1, 1, 1]);
    await shop.request(operation as never, { path: { id: 1 } });
    // Concurrent first calls share one load; later calls start none.
    expect(loads()).toBe(1);

    serve(reservation(1, { party_size: 'two' }));
    const error = await rejection(shop.request(operation as never, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: ['data', 'party_size'], message: 'Invalid input: expected number, received string' },
    ]);
  });

  it('checks params of a defineOperation with a zod/mini body schema, as with classic zod', async () => {
    const op = defineOperation({
      method: 'POST',
      path: '/v1/widgets',
      body: zm.strictObject({ name: zm.string() }),
    });
    const error = await rejection(testClient().request(op, { body: { name: 5, nmae: 'x' } }));
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as ParamsValidationError).details).toEqual({
      name: ['Invalid input: expected string, received number'],
      nmae: ['is not a parameter of this endpoint'],
    });
  });

  it('fails a call whose schemas cannot be loaded with a ShopError, sends nothing, and loads again next time', async () => {
    const { operation: loadable, loads } = lazyRetrieve();
    let failures = 1;
    const operation: Operation = {
      ...loadable,
      schemas: async () => {
        if (failures-- > 0) throw new TypeError('Failed to fetch dynamically imported module');
        return loadable.schemas!();
      },
    };
    let requests = 0;
    server.use(
      http.get(`${BASE_URL}/v1/range/reservations/:id`, () => {
        requests += 1;
        return HttpResponse.json(ok(reservation(1)));
      }),
    );
    const shop = testClient();
    const error = await rejection(shop.request(operation as never, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(ShopError);
    expect((error as ShopError).message).toBe(
      'Could not load the schemas of range.reservations.retrieve, nothing was sent: Failed to fetch dynamically imported module',
    );
    expect(requests).toBe(0);
    const result = await shop.request(operation as never, { path: { id: 1 } });
    expect((result as { id: number }).id).toBe(1);
    expect(loads()).toBe(1);
    expect(requests).toBe(1);
  });
});
