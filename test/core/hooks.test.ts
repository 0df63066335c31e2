// The public hooks, over HTTP (msw): ky's beforeRequest/afterResponse and the SDK's beforeRetry/beforeError,
// each told the call's context; a throwing hook fails the call with a HookError.
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { HookError, InternalServerError, NotFoundError, ShopError } from '../../src/core/errors/index.js';
import type {
  ShopRequestContext,
  ShopResponseContext,
  ShopRetryContext,
} from '../../src/core/observe/hooks.js';
import {
  BASE_URL,
  createReservation,
  failure,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const CREATE_URL = `${BASE_URL}/v1/range/reservations`;
const RETRIEVE_URL = `${BASE_URL}/v1/range/reservations/:id`;

/** POST answering 503, 503, then 201; records the Idempotency-Key each attempt carried. */
function flakyCreate(): string[] {
  const keys: string[] = [];
  server.use(
    http.post(CREATE_URL, ({ request }) => {
      keys.push(request.headers.get('idempotency-key') ?? '');
      return keys.length < 3
        ? HttpResponse.json(failure('SERVER_ERROR'), { status: 503 })
        : HttpResponse.json(ok(reservation(7)), { status: 201 });
    }),
  );
  return keys;
}

describe('hooks', () => {
  it('see every attempt of a retried POST with the same key and rising attempt numbers', async () => {
    const keys = flakyCreate();
    const before: ShopRequestContext[] = [];
    const after: ShopResponseContext[] = [];
    const retries: ShopRetryContext[] = [];
    const shop = testClient({
      hooks: {
        beforeRequest: [
          (request, options) => {
            before.push({ ...(options.context as unknown as ShopRequestContext) });
            request.headers.set(
              'x-request-id',
              `attempt-${(options.context as { attempt: number }).attempt}`,
            );
          },
        ],
        afterResponse: [
          (_request, options) => void after.push({ ...(options.context as unknown as ShopResponseContext) }),
        ],
        beforeRetry: [(context) => void retries.push(context)],
      },
    });
    const created = await shop.request(
      createReservation,
      { body: { party_size: 2 } },
      { idempotencyKey: 'book-1' },
    );
    expect(created.id).toBe(7);
    expect(keys).toEqual(['book-1', 'book-1', 'book-1']);
    expect(before.map((context) => context.attempt)).toEqual([1, 2, 3]);
    for (const context of [...before, ...after, ...retries]) {
      expect(context).toMatchObject({
        operation: 'range.reservations.create',
        method: 'POST',
        path: '/v1/range/reservations',
        idempotencyKey: 'book-1',
      });
    }
    expect(after.map((context) => [context.attempt, context.status])).toEqual([
      [1, 503],
      [2, 503],
      [3, 201],
    ]);
    expect(after[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(after[0]?.rateLimit).toEqual(expect.objectContaining({ limit: null }));
    expect(retries.map((context) => [context.attempt, context.error.constructor])).toEqual([
      [1, InternalServerError],
      [2, InternalServerError],
    ]);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(0);
  });

  it('lets beforeRequest change the request that is sent', async () => {
    let seen: string | null = null;
    server.use(
      http.get(RETRIEVE_URL, ({ request }) => {
        seen = request.headers.get('x-tenant');
        return HttpResponse.json(ok(reservation(1)));
      }),
    );
    const shop = testClient({
      hooks: { beforeRequest: [(request) => request.headers.set('x-tenant', 'north')] },
    });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(seen).toBe('north');
  });

  it('run the client hooks, then the call hooks', async () => {
    server.use(http.get(RETRIEVE_URL, () => HttpResponse.json(ok(reservation(1)))));
    const order: string[] = [];
    const shop = testClient({ hooks: { beforeRequest: [() => void order.push('client')] } });
    await shop.request(
      retrieveReservation,
      { path: { id: 1 } },
      { hooks: { beforeRequest: [() => void order.push('call')] } },
    );
    await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(order).toEqual(['client', 'call', 'client']);
  });

  it('fail the call with a HookError, nothing sent and no retry, when beforeRequest throws', async () => {
    let requests = 0;
    server.use(
      http.get(RETRIEVE_URL, () => {
        requests++;
        return HttpResponse.json(ok(reservation(1)));
      }),
    );
    const shop = testClient({
      hooks: {
        beforeRequest: [
          () => {
            throw new Error('tracer not ready');
          },
        ],
      },
    });
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(HookError);
    expect(error).toBeInstanceOf(ShopError);
    expect((error as Error).message).toBe('A beforeRequest hook threw: tracer not ready');
    expect(((error as Error).cause as Error).message).toBe('tracer not ready');
    expect((error as HookError).attempts).toBe(1);
    expect(requests).toBe(0);
  });

  it('let afterResponse hooks read the body and the request sent, the call still reading its own answer', async () => {
    server.use(
      http.get(RETRIEVE_URL, ({ request }) =>
        HttpResponse.json(ok(reservation(Number(new URL(request.url).pathname.split('/').pop())))),
      ),
    );
    const bodies: unknown[] = [];
    const sent: string[] = [];
    const shop = testClient({
      hooks: {
        beforeRequest: [(request) => request.headers.set('x-trace', 'a1')],
        afterResponse: [
          async (request, _options, response) => {
            sent.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('x-trace')}`);
            bodies.push(((await response.json()) as { data: { id: number } }).data.id);
          },
          async (_request, _options, response) =>
            void bodies.push((await response.clone().text()).length > 0),
          () => {},
        ],
      },
    });
    const found = await shop.request(retrieveReservation, { path: { id: 5 } });
    expect(found.id).toBe(5);
    expect(bodies).toEqual([5, true]);
    expect(sent).toEqual(['GET /v1/range/reservations/5 a1']);
  });

  it('let an afterResponse hook replace the answer with a Response of its own, as ky does', async () => {
    server.use(http.get(RETRIEVE_URL, () => HttpResponse.json(failure('NOT_FOUND'), { status: 404 })));
    const seen: number[] = [];
    const shop = testClient({
      hooks: {
        afterResponse: [
          (_request, _options, response) =>
            response.status === 404 ? Response.json(ok(reservation(9)), { status: 200 }) : undefined,
          (_request, _options, response) => void seen.push(response.status),
        ],
      },
    });
    const found = await shop.request(retrieveReservation, { path: { id: 9 } }, { hooks: {} });
    expect(found.id).toBe(9);
    expect(seen).toEqual([200]);
  });

  it('fail the call with a HookError when afterResponse, beforeRetry or an async hook throws', async () => {
    server.use(http.get(RETRIEVE_URL, () => HttpResponse.json(failure('SERVER_ERROR'), { status: 503 })));
    const after = testClient({
      hooks: { afterResponse: [async () => Promise.reject(new Error('metrics down'))] },
    });
    const afterError = await rejection(after.request(retrieveReservation, { path: { id: 1 } }));
    expect(afterError).toBeInstanceOf(HookError);
    expect((afterError as Error).message).toBe('A afterResponse hook threw: metrics down');

    const retry = testClient({
      hooks: {
        beforeRetry: [
          () => {
            throw 'no more';
          },
        ],
      },
    });
    const retryError = await rejection(retry.request(retrieveReservation, { path: { id: 1 } }));
    expect(retryError).toBeInstanceOf(HookError);
    expect((retryError as HookError).attempts).toBe(1);
  });

  it('let beforeError replace the error, and turn a throwing one into a HookError', async () => {
    server.use(http.get(RETRIEVE_URL, () => HttpResponse.json(failure('NOT_FOUND'), { status: 404 })));
    class Wrapped extends Error {}
    const seen: ShopRequestContext[] = [];
    const replacing = testClient({
      hooks: {
        beforeError: [
          (error, context) => {
            seen.push(context);
            return new Wrapped(`wrapped ${(error as NotFoundError).code}`, { cause: error });
          },
        ],
      },
    });
    const error = await rejection(replacing.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(Wrapped);
    expect((error as Error).cause).toBeInstanceOf(NotFoundError);
    expect(seen[0]).toMatchObject({
      operation: 'range.reservations.retrieve',
      path: '/v1/range/reservations/{id}',
    });

    const throwing = testClient({
      hooks: {
        beforeError: [
          () => {
            throw new Error('reporter crashed');
          },
        ],
      },
    });
    expect(await rejection(throwing.request(retrieveReservation, { path: { id: 1 } }))).toBeInstanceOf(
      HookError,
    );
  });

  it('refuses hooks that are not arrays of functions when the client is built', () => {
    expect(() => testClient({ hooks: { beforeRequest: 'nope' as never } })).toThrow(
      /hooks\.beforeRequest must be an array of functions/,
    );
  });
});

describe('withOptions', () => {
  it("sends the derived client's headers and key, never the parent's, and leaks nothing back", async () => {
    const seen: Headers[] = [];
    server.use(
      http.get(RETRIEVE_URL, ({ request }) => {
        seen.push(request.headers);
        return HttpResponse.json(ok(reservation(1)));
      }),
    );
    const parent = testClient({ defaultHeaders: { 'x-app': 'pos' } });
    const childHook: string[] = [];
    const child = parent.withOptions({
      apiKey: 'sk_test_child_key_99',
      headers: { 'x-tenant': 'north' },
      hooks: { beforeRequest: [() => void childHook.push('child')] },
    });
    await child.request(retrieveReservation, { path: { id: 1 } });
    await parent.request(retrieveReservation, { path: { id: 1 } });
    const [fromChild, fromParent] = seen;
    expect(fromChild?.get('x-tenant')).toBe('north');
    expect(fromChild?.get('x-app')).toBe('pos');
    expect(fromChild?.get('authorization')).toBe('Bearer sk_test_child_key_99');
    expect(fromParent?.get('x-tenant')).toBeNull();
    expect(fromParent?.get('x-app')).toBe('pos');
    expect(fromParent?.get('authorization')).toBe('Bearer sk_test_a1b2c3d4e5f6');
    expect(childHook).toEqual(['child']);
  });

  it("runs the parent's hooks on the derived client too, and takes its own timeout and retries", async () => {
    let calls = 0;
    server.use(
      http.get(RETRIEVE_URL, () => {
        calls++;
        return HttpResponse.json(failure('SERVER_ERROR'), { status: 503 });
      }),
    );
    const parentHook: number[] = [];
    const parent = testClient({
      hooks: {
        beforeRequest: [
          (_r, options) => void parentHook.push((options.context as { attempt: number }).attempt),
        ],
      },
    });
    const child = parent.withOptions({ maxRetries: 0 });
    const error = await rejection(child.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(calls).toBe(1);
    expect(parentHook).toEqual([1]);
  });

  it('shares the parent throttle unless given its own', async () => {
    server.use(http.get(RETRIEVE_URL, () => HttpResponse.json(ok(reservation(1)))));
    const parent = testClient({ throttle: { requestsPerMinute: 600 } }); // one start per 100 ms
    const child = parent.withOptions({ headers: { 'x-tenant': 'north' } });
    const own = parent.withOptions({ throttle: { requestsPerMinute: 60_000 } });
    // On a fake clock: the shared slot is 100 ms after the parent's start, however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    try {
      await parent.request(retrieveReservation, { path: { id: 1 } });
      let done = false;
      const shared = child.request(retrieveReservation, { path: { id: 1 } }).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(90);
      expect(done).toBe(false); // waits for the shared slot
      await vi.advanceTimersByTimeAsync(20);
      await shared;
      expect(done).toBe(true);
      // Its own throttle has a slot at once: done without the clock moving.
      const before = Date.now();
      await own.request(retrieveReservation, { path: { id: 1 } });
      expect(Date.now()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });
});
