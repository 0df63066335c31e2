// Issue 20: answers a broken or hostile server (or a proxy in front of it) may send, each over HTTP (msw):
// deep nesting, echoed secrets, unanswered and in-doubt writes, a logger that throws. Every failure must be
// a typed ShopError whose message is short and whose every printed form is free of the key.
import { tracingChannel } from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  ConnectionError,
  InvalidResponseError,
  ResponseValidationError,
  ShopError,
  TimeoutError,
} from '../../src/core/errors/index.js';
import type { Logger } from '../../src/core/observe/logger.js';
import {
  API_KEY,
  BASE_URL,
  createReservation,
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
const ONE_URL = `${BASE_URL}/v1/range/reservations/1`;
const LIST_URL = `${BASE_URL}/v1/range/reservations`;
const CREATE_URL = `${BASE_URL}/v1/range/reservations`;

/** `{inner: {inner: ... leaf}}`, `depth` levels, built without recursion. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { inner: value };
  return value;
}

/** The JSON text of {@link nested}: msw's own `HttpResponse.json` cannot stringify 5,000 levels. */
function nestedJson(depth: number, leaf: unknown): string {
  return `${'{"inner":'.repeat(depth)}${JSON.stringify(leaf)}${'}'.repeat(depth)}`;
}

/** A JSON answer from its text. */
function jsonText(text: string, status = 200): Response {
  return new HttpResponse(text, { status, headers: { 'content-type': 'application/json' } });
}

/** Every printed form of an error a caller or a logger may produce. */
function printed(error: unknown): string {
  return [
    String(error),
    (error as Error).stack ?? '',
    inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    JSON.stringify(error),
    JSON.stringify((error as { details?: unknown }).details ?? null),
    JSON.stringify((error as { data?: unknown }).data ?? null),
  ].join('\n');
}

describe('deep nesting (5,000 levels)', () => {
  it('a list whose meta is nested 5,000 deep fails with a typed error and a short message', async () => {
    server.use(
      http.get(LIST_URL, () => jsonText(`{"status":"ok","data":[],"meta":${nestedJson(5_000, API_KEY)}}`)),
    );
    const error = await rejection(testClient().list(listReservations));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message.length).toBeLessThan(400);
    expect((error as Error).message).toMatch(/^Expected list meta \{has_more, next_cursor\}/);
    expect(printed(error)).not.toContain(API_KEY);
  });

  it('a ConflictError with details nested 5,000 deep serializes and inspects at any depth', async () => {
    server.use(
      http.post(CREATE_URL, () =>
        jsonText(
          `{"status":"error","error":{"code":"SESSION_FULL","message":"Full","details":${nestedJson(5_000, API_KEY)}}}`,
          409,
        ),
      ),
    );
    const error = await rejection(testClient().request(createReservation, { body: { party_size: 2 } }));
    expect(error).toBeInstanceOf(ConflictError);
    const json = JSON.parse(JSON.stringify(error)) as { details: unknown; code: string };
    expect(json.code).toBe('SESSION_FULL');
    expect(JSON.stringify(json.details)).toContain('[truncated]');
    expect(() => inspect(error, { depth: Number.POSITIVE_INFINITY })).not.toThrow();
    expect(printed(error)).not.toContain(API_KEY);
  });

  it('a 20 MB error message is quoted as a short excerpt', async () => {
    const huge = `${'x'.repeat(20_000_000)} ${API_KEY}`;
    server.use(http.get(ONE_URL, () => HttpResponse.json(failure('NOT_FOUND', huge), { status: 404 })));
    const error = await rejection(
      testClient({ maxRetries: 0, maxResponseBytes: 64 * 1024 * 1024 }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(error).toMatchObject({ name: 'NotFoundError', code: 'NOT_FOUND' });
    expect((error as Error).message.length).toBeLessThan(600);
    expect(printed(error)).not.toContain(API_KEY);
  });
});

describe('an echoed key never reaches an error, a hook, a trace or a log', () => {
  const FUNCTION_KEY = 'sk_live_from_the_vault_9f8e7d6c';
  const WEBHOOK_SECRET = 'whsec_c2VjcmV0LWVjaG9lZC1ieS1hLXByb3h5';
  const echoed = [API_KEY, FUNCTION_KEY, WEBHOOK_SECRET];

  /** Everything a test saw: log lines (all arguments), hook arguments, trace messages, the error. */
  function recorder() {
    const lines: string[] = [];
    const log = (...args: unknown[]) => lines.push(inspect(args, { depth: Number.POSITIVE_INFINITY }));
    const logger: Logger = { debug: log, info: log, warn: log, error: log };
    const hooks = {
      beforeRetry: [(context: unknown) => void lines.push(printed((context as { error: Error }).error))],
      beforeError: [(error: Error, context: unknown) => void lines.push(printed(error), inspect(context))],
    };
    return { lines, logger, hooks };
  }

  /** Subscribes to the request channel for the duration of `run`, printing every message it publishes. */
  async function traced(run: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const channel = tracingChannel('shop-mgmt:request');
    const record = (message: unknown) =>
      void seen.push(printed((message as { error?: unknown }).error ?? message));
    const handlers = { start: record, end: record, asyncStart: record, asyncEnd: record, error: record };
    channel.subscribe(handlers);
    try {
      await run();
    } finally {
      channel.unsubscribe(handlers);
    }
    return seen;
  }

  /** An answer echoing every secret into each place a server can put text. */
  const echo = (status: number, code: string) =>
    HttpResponse.json(
      failure(code, `proxy saw Authorization: Bearer ${API_KEY} and ${FUNCTION_KEY}, ${WEBHOOK_SECRET}`, {
        headers: { authorization: `Bearer ${FUNCTION_KEY}` },
        echoed,
        [API_KEY]: 'as a key too',
        deep: nested(50, echoed),
      }),
      { status },
    );

  it.each([
    ['a string key', API_KEY, API_KEY],
    ['a key function', () => Promise.resolve(FUNCTION_KEY), FUNCTION_KEY],
  ])('with %s: a 409 echoing the key, retried once then a 422', async (_, apiKey, sent) => {
    let calls = 0;
    server.use(
      http.post(CREATE_URL, () =>
        ++calls === 1 ? echo(409, 'IDEMPOTENCY_IN_PROGRESS') : echo(422, 'NO_GUEST_PASSES'),
      ),
    );
    const { lines, logger, hooks } = recorder();
    const shop = testClient({ apiKey, logger, logLevel: 'debug', hooks, maxRetries: 1 });
    let error: unknown;
    const traces = await traced(async () => {
      error = await rejection(shop.request(createReservation, { body: { party_size: 2 } }));
    });
    expect(error).toMatchObject({ name: 'UnprocessableEntityError', code: 'NO_GUEST_PASSES' });
    expect(calls).toBe(2);
    const everything = [printed(error), ...lines, ...traces].join('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const secret of [sent, WEBHOOK_SECRET]) expect(everything).not.toContain(secret);
    expect(everything).toContain('[redacted]');
  });

  it('a 2xx whose data echoes the key: the ResponseValidationError keeps a redacted copy', async () => {
    server.use(
      http.get(ONE_URL, () =>
        HttpResponse.json(
          ok({ ...reservation(1), id: 'not a number', note: `Bearer ${API_KEY}`, s: WEBHOOK_SECRET }),
        ),
      ),
    );
    const error = await rejection(testClient().request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).data).toMatchObject({
      id: 'not a number',
      note: 'Bearer [redacted]',
    });
    for (const secret of [API_KEY, WEBHOOK_SECRET]) expect(printed(error)).not.toContain(secret);
  });

  it('a hook whose error quotes the key fails the call with a redacted HookError', async () => {
    server.use(http.get(ONE_URL, () => HttpResponse.json(ok(reservation(1)))));
    const shop = testClient({
      apiKey: () => FUNCTION_KEY,
      hooks: {
        beforeRequest: [
          (request) => {
            throw new Error(`refusing ${request.headers.get('authorization')}`);
          },
        ],
      },
    });
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toMatchObject({ name: 'HookError' });
    expect(printed(error)).not.toContain(FUNCTION_KEY);
    expect((error as Error).message).toContain('[redacted]');
  });

  it('a custom fetch that fails quoting the key gives a redacted ConnectionError', async () => {
    const shop = testClient({
      maxRetries: 0,
      fetch: (input) =>
        Promise.reject(new TypeError(`fetch failed for ${(input as Request).headers.get('authorization')}`)),
    });
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(printed(error)).not.toContain(API_KEY);
  });
});

describe('a logger that throws never fails a call', () => {
  const throwing: Logger = {
    debug: () => {
      throw new Error('log stream closed');
    },
    info: () => {
      throw new Error('log stream closed');
    },
    warn: () => {
      throw new Error('log stream closed');
    },
    error: () => {
      throw new Error('log stream closed');
    },
  };
  const rejecting: Logger = {
    debug: () => Promise.reject(new Error('async log failed')) as never,
    info: () => Promise.reject(new Error('async log failed')) as never,
    warn: () => Promise.reject(new Error('async log failed')) as never,
    error: () => Promise.reject(new Error('async log failed')) as never,
  };

  it.each([
    ['throws', throwing],
    ['returns a rejected promise', rejecting],
  ])('a logger that %s: debug lines, a retry line and a success', async (_, logger) => {
    let calls = 0;
    server.use(
      http.get(ONE_URL, () =>
        ++calls === 1
          ? HttpResponse.json(failure('INTERNAL'), { status: 503 })
          : HttpResponse.json(ok(reservation(1))),
      ),
    );
    const shop = testClient({ logger, logLevel: 'debug' });
    const result = await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(result.id).toBe(1);
    expect(calls).toBe(2);
  });
});

describe('mayHaveBeenApplied', () => {
  it('is true for a POST whose only attempt timed out', async () => {
    server.use(http.post(CREATE_URL, () => delay('infinite')));
    const error = await rejection(
      testClient({ maxRetries: 0, timeout: 50 }).request(createReservation, { body: { party_size: 2 } }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ mayHaveBeenApplied: true, attempts: 1 });
  });

  it('is true for a POST whose connection was reset', async () => {
    server.use(http.post(CREATE_URL, () => HttpResponse.error()));
    const error = await rejection(
      testClient({ maxRetries: 0 }).request(createReservation, { body: { party_size: 2 } }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ mayHaveBeenApplied: true });
  });

  it('is true for IDEMPOTENCY_IN_PROGRESS after a timeout (the first attempt still running)', async () => {
    let calls = 0;
    server.use(
      http.post(CREATE_URL, async () => {
        if (++calls === 1) await delay('infinite');
        return HttpResponse.json(failure('IDEMPOTENCY_IN_PROGRESS'), { status: 409 });
      }),
    );
    const error = await rejection(
      testClient({ maxRetries: 1, timeout: 50 }).request(createReservation, { body: { party_size: 2 } }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS', mayHaveBeenApplied: true, attempts: 2 });
  });

  it('is true for a 5xx, false for a 4xx refusal and for any GET', async () => {
    server.use(
      http.post(CREATE_URL, ({ request }) =>
        request.headers.get('idempotency-key') === 'five'
          ? HttpResponse.json(failure('INTERNAL'), { status: 500 })
          : HttpResponse.json(failure('VALIDATION_ERROR'), { status: 400 }),
      ),
      http.get(ONE_URL, () => delay('infinite')),
    );
    const shop = testClient({ maxRetries: 0, timeout: 50 });
    const serverError = await rejection(
      shop.request(createReservation, { body: { party_size: 2 } }, { idempotencyKey: 'five' }),
    );
    const refused = await rejection(shop.request(createReservation, { body: { party_size: 2 } }));
    const read = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    expect(serverError).toMatchObject({ status: 500, mayHaveBeenApplied: true });
    expect(refused).toMatchObject({ status: 400, mayHaveBeenApplied: false });
    expect(read).toMatchObject({ name: 'TimeoutError', mayHaveBeenApplied: false });
  });

  it('is on a result: true for a POST that succeeded, false for a GET', async () => {
    server.use(
      http.post(CREATE_URL, () => HttpResponse.json(ok(reservation(1)), { status: 201 })),
      http.get(ONE_URL, () => HttpResponse.json(ok(reservation(1)))),
    );
    const shop = testClient();
    const created = await shop.request(createReservation, { body: { party_size: 2 } }).withResponse();
    const read = await shop.request(retrieveReservation, { path: { id: 1 } }).withResponse();
    expect(created.mayHaveBeenApplied).toBe(true);
    expect(read.mayHaveBeenApplied).toBe(false);
  });
});

describe('deadline and signal end a call whose own code never settles', () => {
  const never = <T>() => new Promise<T>(() => {});
  const reservationAnswer = () => HttpResponse.json(ok(reservation(1)));

  it.each([
    ['apiKey function', { apiKey: () => never<string>() }],
    ['beforeRequest hook', { hooks: { beforeRequest: [() => never<void>()] } }],
    ['afterResponse hook', { hooks: { afterResponse: [() => never<void>()] } }],
    ['custom fetch ignoring its signal', { fetch: () => never<Response>() }],
  ])('a %s that never settles: the deadline ends the call with a TimeoutError', async (_, options) => {
    server.use(http.get(ONE_URL, reservationAnswer));
    const error = await rejection(
      testClient({ ...options, deadline: 150 }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ deadline: 150 });
  });

  it.each([
    ['apiKey function', { apiKey: () => never<string>() }],
    ['beforeRequest hook', { hooks: { beforeRequest: [() => never<void>()] } }],
    ['custom fetch ignoring its signal', { fetch: () => never<Response>() }],
  ])('a %s that never settles: an aborted signal ends the call with its reason', async (_, options) => {
    server.use(http.get(ONE_URL, reservationAnswer));
    const reason = new Error('the caller gave up');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    const error = await rejection(
      testClient(options).request(retrieveReservation, { path: { id: 1 } }, { signal: controller.signal }),
    );
    expect(error).toBe(reason);
  });

  it('a beforeRetry hook that never settles: the deadline ends the call, naming the failed attempt', async () => {
    server.use(http.get(ONE_URL, () => HttpResponse.json(failure('INTERNAL'), { status: 503 })));
    const error = await rejection(
      testClient({ deadline: 150, hooks: { beforeRetry: [() => never<void>()] } }).request(
        retrieveReservation,
        {
          path: { id: 1 },
        },
      ),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).cause).toMatchObject({ status: 503 });
  });

  it('a beforeError hook that never settles: the call rejects with its error after the deadline grace', async () => {
    server.use(http.get(ONE_URL, () => HttpResponse.json(failure('NOT_FOUND'), { status: 404 })));
    const error = await rejection(
      testClient({ deadline: 100, hooks: { beforeError: [() => never<Error>()] } }).request(
        retrieveReservation,
        {
          path: { id: 1 },
        },
      ),
    );
    expect(error).toMatchObject({ name: 'NotFoundError' });
  });

  it('without a deadline, a per-attempt timeout ends a custom fetch that never settles', async () => {
    const error = await rejection(
      testClient({ maxRetries: 0, timeout: 50, fetch: () => never<Response>() }).request(
        retrieveReservation,
        {
          path: { id: 1 },
        },
      ),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ deadline: null, timeout: 50 });
    expect(error).toBeInstanceOf(ShopError);
  });
});
