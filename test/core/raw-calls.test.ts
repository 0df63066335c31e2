import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { APIPromise } from '../../src/core/api/api-promise.js';
import { defineOperation } from '../../src/core/api/operation.js';
import {
  NotFoundError,
  ParamsValidationError,
  ResponseValidationError,
} from '../../src/core/errors/index.js';
import { operations } from '../../src/index.js';
import {
  API_KEY,
  BASE_URL,
  failure,
  listReservations,
  ok,
  rejection,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly body: string;
}

/** Records every request; answers with `answer` (a success envelope around `{ id: 5 }` by default). */
function record(answer: (index: number) => Response = () => HttpResponse.json(ok({ id: 5 }))): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.all(`${BASE_URL}/*`, async ({ request }) => {
      seen.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: await request.text(),
      });
      return answer(seen.length - 1);
    }),
  );
  return seen;
}

const Widget = z.looseObject({ id: z.number().int(), name: z.string().optional() });

describe('calling an endpoint the SDK has no method for yet', () => {
  it('sends a GET through the same transport: base URL, key, path values encoded, query encoded', async () => {
    const seen = record();
    const data = await testClient().get('/v1/widgets/{id}/parts', {
      path: { id: 'a b/c' },
      query: { include: ['price', 'stock'], active: true, missing: undefined },
    });
    expect(data).toEqual({ id: 5 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.url).toBe(`${BASE_URL}/v1/widgets/a%20b%2Fc/parts?include=price,stock&active=true`);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(seen[0]?.headers.has('idempotency-key')).toBe(false);
  });

  it('sends a POST with a JSON body and an Idempotency-Key kept across retries, validating a given schema', async () => {
    const seen = record((index) =>
      index === 0
        ? HttpResponse.json(failure('SERVER_ERROR'), { status: 503 })
        : HttpResponse.json(ok({ id: 7, name: 'Blue' }), { status: 201 }),
    );
    const widget = await testClient().post('/v1/widgets', { body: { name: 'Blue' }, result: Widget });
    expect(widget).toEqual({ id: 7, name: 'Blue' });
    expect(seen.map((request) => request.body)).toEqual(['{"name":"Blue"}', '{"name":"Blue"}']);
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(seen[0]?.headers.get('content-type')).toBe('application/json');
  });

  it('sends PATCH and DELETE, and raises the same typed errors', async () => {
    const seen = record((index) =>
      index === 0
        ? HttpResponse.json(ok({ id: 5, name: 'Red' }))
        : HttpResponse.json(failure('NOT_FOUND', 'No such widget'), { status: 404 }),
    );
    const shop = testClient();
    expect(await shop.patch('/v1/widgets/5', { body: { name: 'Red' } })).toEqual({ id: 5, name: 'Red' });
    const error = await rejection(shop.delete('/v1/widgets/{id}', { path: { id: 5 } }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(seen.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'PATCH /v1/widgets/5',
      'DELETE /v1/widgets/5',
    ]);
  });

  it('resolves a DELETE answered 204 with no body to { id, deleted: true }', async () => {
    record(() => new Response(null, { status: 204 }));
    const shop = testClient();
    expect(await shop.delete('/v1/widgets/{id}', { path: { id: 5 } })).toEqual({ id: 5, deleted: true });
    expect(await shop.delete('/v1/widgets/5')).toEqual({ deleted: true });
  });

  it('raises ResponseValidationError when data breaks the given schema', async () => {
    record(() => HttpResponse.json(ok({ id: 'seven' })));
    const error = await rejection(testClient().get('/v1/widgets/7', { result: Widget }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toEqual(['data', 'id']);
  });

  it.each([
    ['a path without /v1', '/widgets'],
    ['a relative path', 'v1/widgets'],
    ['a full URL', 'https://elsewhere.example.com/v1/widgets'],
    ['a dot segment', '/v1/range/../admin'],
    ['a query string in the path', '/v1/widgets?limit=5'],
    ['a space', '/v1/wid gets'],
  ])('refuses %s before sending anything', async (_name, path) => {
    const seen = record();
    const error = await rejection(testClient().get(path));
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as ParamsValidationError).details.path?.[0]).toMatch(/\/v1\//);
    expect(seen).toHaveLength(0);
  });

  it('walks a new paginated endpoint with defineOperation and list()', async () => {
    const seen = record((index) =>
      HttpResponse.json(
        ok([{ id: index * 2 + 1 }, { id: index * 2 + 2 }], {
          limit: 2,
          has_more: index === 0,
          next_cursor: index === 0 ? 'next' : null,
        }),
      ),
    );
    const listWidgets = defineOperation({
      method: 'GET',
      path: '/v1/widgets',
      result: Widget,
      pagination: 'cursor',
    });
    const ids: number[] = [];
    for await (const widget of testClient().list(listWidgets, { query: { limit: 2 } })) ids.push(widget.id);
    expect(ids).toEqual([1, 2, 3, 4]);
    expect(seen.map((request) => new URL(request.url).search)).toEqual(['?limit=2', '?limit=2&cursor=next']);
  });

  it('exports the generated endpoint table from the package root', () => {
    expect(operations['range.reservations.retrieve'].path).toBe('/v1/range/reservations/{id}');
  });
});

describe('types of the raw calls', () => {
  it('types data as unknown, or as the given schema', () => {
    const shop = testClient();
    const typing = () => {
      expectTypeOf(shop.get('/v1/widgets/1')).toEqualTypeOf<APIPromise<unknown>>();
      expectTypeOf(shop.post('/v1/widgets', { body: {}, result: Widget })).toEqualTypeOf<
        APIPromise<z.output<typeof Widget>>
      >();
      // @ts-expect-error: a GET sends no body
      shop.get('/v1/widgets', { body: {} });
    };
    expect(typeof typing).toBe('function');
  });

  it('refuses a cursor list in request() and a single-record operation in list()', () => {
    const shop = testClient();
    const misuse = () => {
      // @ts-expect-error: a cursor-paginated operation goes through list()
      shop.request(listReservations, {});
      // @ts-expect-error: a single-record operation has no pages
      shop.list(retrieveReservation, { path: { id: 1 } });
      // @ts-expect-error: a generated list operation too
      shop.request(operations['range.reservations.list']);
    };
    expect(typeof misuse).toBe('function');
  });
});
