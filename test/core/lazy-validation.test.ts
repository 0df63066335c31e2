// Schemas and zod load on the first call (a chunk of their own in the ESM build), then answer synchronously.
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { defineOperation, type Operation, type OperationSchemas } from '../../src/core/api/operation.js';
import { ParamsValidationError, ResponseValidationError, ShopError } from '../../src/core/errors/index.js';
import { checker, loadedChecker } from '../../src/core/validation/lazy-validation.js';
import { OPERATION_GUARDS } from '../../src/generated/operation-guards.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import { operations } from '../../src/generated/operations.js';
import { samples } from '../generated/samples.js';
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
  it('loads a generated operation its checks on its first call, then resolves them synchronously', async () => {
    const op = operations['range.reservations.retrieve'];
    expect(loadedChecker(op)).toBeUndefined();
    serve({ ...reservation(1), contact: { first_name: 'A', last_name: null, email: null, phone: null } });
    await testClient()
      .request(op, { path: { id: 1 } })
      .catch(() => undefined);
    const found = checker(op);
    expect(found).not.toBeInstanceOf(Promise);
    const loaded = found as Exclude<typeof found, Promise<unknown>>;
    expect(loaded.guards).toBe(OPERATION_GUARDS['range.reservations.retrieve']);
    // That answer broke the schema (a contact is {name, email, phone}): the schemas loaded to describe it.
    expect(loaded.zod?.schemas).toBe(OPERATION_SCHEMAS['range.reservations.retrieve']);
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

/**
 * A generated operation whose schemas loader counts its calls (and can fail), its guards the generated
 * ones: the first call loads the guards alone; the schemas (and zod) load only when a guard refuses.
 */
function guarded(
  id: 'range.reservations.retrieve' | 'range.reservations.list' | 'range.reservations.create',
) {
  const generated = operations[id] as Operation;
  let loads = 0;
  let failures = 0;
  const operation: Operation = {
    ...generated,
    schemas: async () => {
      loads += 1;
      if (failures > 0) {
        failures -= 1;
        throw new TypeError('Failed to fetch dynamically imported module');
      }
      return generated.schemas!();
    },
  };
  const failNext = () => {
    failures = 1;
  };
  return { operation, loads: () => loads, failNext };
}

const RESERVATIONS = `${BASE_URL}/v1/range/reservations`;
/** A reservation as the API sends it (every field of the reference), which the generated schema accepts. */
const validReservation = () => structuredClone(samples.RangeReservation!);

describe('generated operations: guards first, zod only to describe a refusal', () => {
  it('checks a valid answer with the guards alone: the schemas are never loaded', async () => {
    const { operation, loads } = guarded('range.reservations.retrieve');
    serve(validReservation());
    const shop = testClient();
    const result = await shop.request(operation as never, { path: { id: 1 } });
    expect(result).toEqual(validReservation());
    const found = checker(operation) as Exclude<ReturnType<typeof checker>, Promise<unknown>>;
    expect(found.guards).toBe(OPERATION_GUARDS['range.reservations.retrieve']);
    expect(found.zod).toBeUndefined();
    expect(loads()).toBe(0);
  });

  it('describes an answer a guard refused with the schemas, loaded then, with the same issues as zod', async () => {
    const { operation, loads } = guarded('range.reservations.retrieve');
    const shop = testClient();
    serve({ ...validReservation(), party_size: 'two' });
    const error = await rejection(shop.request(operation as never, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: ['data', 'party_size'], message: 'Invalid input: expected number, received string' },
    ]);
    expect(loads()).toBe(1);
    // 'warn' returns the data as received and reports the same issues.
    const reported: ResponseValidationError[] = [];
    const warned = await testClient({
      responseValidation: 'warn',
      onValidationIssue: (issue) => reported.push(issue),
    }).request(operation as never, { path: { id: 1 } });
    expect(warned).toEqual({ ...validReservation(), party_size: 'two' });
    expect(reported.map((r) => r.issues)).toEqual([(error as ResponseValidationError).issues]);
    expect(loads()).toBe(1);
  });

  it('refuses params a guard refused with the fields named by the schemas, and sends nothing', async () => {
    const { operation, loads } = guarded('range.reservations.list');
    let requests = 0;
    server.use(
      http.get(RESERVATIONS, () => {
        requests += 1;
        return HttpResponse.json({
          ...ok([validReservation()]),
          meta: { has_more: false, next_cursor: null },
        });
      }),
    );
    const shop = testClient();
    await shop.list(operation as never, { query: { limit: 5 } }).toArray();
    expect(loads()).toBe(0);
    expect(requests).toBe(1);
    const error = await rejection(
      shop.list(operation as never, { query: { limit: 'five', lmit: 5 } }).toArray(),
    );
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as ParamsValidationError).details).toEqual({
      limit: ['Invalid input: expected number, received string'],
      lmit: ['is not a parameter of this endpoint'],
    });
    expect(loads()).toBe(1);
    expect(requests).toBe(1);
  });

  it('refuses a page whose item a guard refused, naming the item by its index', async () => {
    const { operation } = guarded('range.reservations.list');
    server.use(
      http.get(RESERVATIONS, () =>
        HttpResponse.json({
          ...ok([validReservation(), { ...validReservation(), starts_at: '2026-10-01 15:00' }]),
          meta: { has_more: false, next_cursor: null },
        }),
      ),
    );
    const error = await rejection(
      testClient()
        .list(operation as never, {})
        .toArray(),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: ['data', 1, 'starts_at'], message: 'Invalid ISO datetime' },
    ]);
  });

  it('fails with a ShopError when the schemas cannot load to describe a refusal, and loads again next time', async () => {
    const { operation, loads, failNext } = guarded('range.reservations.create');
    let requests = 0;
    server.use(
      http.post(RESERVATIONS, () => {
        requests += 1;
        return HttpResponse.json(ok(validReservation()), { status: 201 });
      }),
    );
    const shop = testClient();
    failNext();
    const error = await rejection(shop.request(operation as never, { body: { party_size: 'two' } }));
    expect(error).toBeInstanceOf(ShopError);
    expect((error as ShopError).message).toBe(
      'Could not load the schemas of range.reservations.create, nothing was sent: Failed to fetch dynamically imported module',
    );
    expect(requests).toBe(0);
    const again = await rejection(shop.request(operation as never, { body: { party_size: 'two' } }));
    expect(again).toBeInstanceOf(ParamsValidationError);
    expect(loads()).toBe(2);
    expect(requests).toBe(0);
  });
});
