// Tests written against the mutants Stryker left alive in the transport's retry and idempotency rules (issue
// 35, `npm run test:mutation -- --mutate src/core/transport/retry.ts`): which error waits how long, what a
// failed call says about itself, which caller keys are refused, what each retry logs. Over HTTP (msw).
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConflictError,
  ConnectionError,
  InternalServerError,
  ParamsValidationError,
  type ShopError,
  TimeoutError,
} from '../../src/core/errors/index.js';
import type { Logger } from '../../src/core/observe/logger.js';
import { type RetryPolicy, retryDelay } from '../../src/core/transport/retry.js';
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
const ONE = `${BASE_URL}/v1/range/reservations/:id`;
const CREATE = `${BASE_URL}/v1/range/reservations`;

afterEach(() => vi.restoreAllMocks());

const policy: RetryPolicy = {
  maxRetries: 3,
  maxRetryAfterSeconds: 60,
  backoffBaseMs: 500,
  backoffCapMs: 8_000,
};

function serverError(status: number, headers: Record<string, string>) {
  return new InternalServerError({
    status,
    code: 'SERVER_ERROR',
    message: '',
    details: {},
    headers: new Headers(headers),
  });
}

function capture() {
  const lines: Array<{ level: string; line: string; fields: unknown }> = [];
  const note = (level: string) => (line: string, fields?: unknown) =>
    void lines.push({ level, line, fields });
  const logger: Logger = {
    debug: note('debug'),
    info: note('info'),
    warn: note('warn'),
    error: note('error'),
  };
  return { lines, logger };
}

describe('retryDelay', () => {
  it("honours Retry-After on a 503 only: a 500's or 502's is backed off like any 5xx", () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(retryDelay(serverError(503, { 'retry-after': '7' }), 1, policy)).toBe(7_000);
    expect(retryDelay(serverError(502, { 'retry-after': '7' }), 1, policy)).toBe(250);
    expect(retryDelay(serverError(500, { 'retry-after': '7' }), 2, policy)).toBe(500);
  });

  it('retries a timed-out attempt, never a call past its deadline', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(retryDelay(new TimeoutError(100), 1, policy)).toBe(250);
    const pastDeadline = new TimeoutError(1_000, { deadline: 1_000, attemptsMade: 2 });
    expect(pastDeadline.deadline).toBe(1_000);
    expect(retryDelay(pastDeadline, 1, policy)).toBeNull();
  });
});

describe('what a failed call says about itself', () => {
  it('gives an elapsed time no longer than the call took', async () => {
    server.use(http.get(ONE, () => HttpResponse.json(failure('NOT_FOUND'), { status: 404 })));
    const before = performance.now();
    const error = (await rejection(
      testClient().request(retrieveReservation, { path: { id: 1 } }),
    )) as ShopError;
    const took = performance.now() - before;
    expect(error.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(error.elapsedMs).toBeLessThanOrEqual(took);
  });

  it('may have been applied after a 5xx or IDEMPOTENCY_IN_PROGRESS, not after a 4xx, never for a GET', async () => {
    const answers: Record<string, () => Response> = {
      '500': () => HttpResponse.json(failure('SERVER_ERROR'), { status: 500 }),
      '409-progress': () => HttpResponse.json(failure('IDEMPOTENCY_IN_PROGRESS'), { status: 409 }),
      '409-other': () => HttpResponse.json(failure('SESSION_FULL'), { status: 409 }),
      '400': () => HttpResponse.json(failure('VALIDATION_FAILED'), { status: 400 }),
    };
    const outcome: Record<string, unknown> = {};
    for (const [name, answer] of Object.entries(answers)) {
      server.use(http.post(CREATE, answer), http.get(ONE, answer));
      const shop = testClient({ maxRetries: 0 });
      const post = (await rejection(
        shop.request(createReservation, { body: { party_size: 2 } }),
      )) as ShopError;
      const get = (await rejection(shop.request(retrieveReservation, { path: { id: 1 } }))) as ShopError;
      outcome[name] = [post.mayHaveBeenApplied, get.mayHaveBeenApplied];
    }
    expect(outcome).toEqual({
      '500': [true, false],
      '409-progress': [true, false],
      '409-other': [false, false],
      '400': [false, false],
    });
    server.use(http.post(CREATE, () => HttpResponse.json(ok(reservation(1)), { status: 201 })));
    const done = await testClient()
      .request(createReservation, { body: { party_size: 2 } })
      .withResponse();
    expect(done.mayHaveBeenApplied).toBe(true);
  });

  it("leaves a caller's abort reason unstamped, and a frozen error from a hook as it is", async () => {
    server.use(http.get(ONE, () => HttpResponse.json(failure('SERVER_ERROR'), { status: 500 })));
    const controller = new AbortController();
    const reason = new Error('the caller stopped');
    const call = testClient({ maxRetries: 5 }).request(
      retrieveReservation,
      { path: { id: 1 } },
      { signal: controller.signal, hooks: { beforeRetry: [() => controller.abort(reason)] } },
    );
    const aborted = await rejection(call);
    expect(aborted).toBe(reason);
    expect(Object.keys(aborted as object)).not.toContain('attempts');
    expect((aborted as { attempts?: number }).attempts).toBeUndefined();

    const frozen = Object.freeze(
      new ConflictError({
        status: 409,
        code: 'SESSION_FULL',
        message: 'full',
        details: {},
        headers: new Headers(),
      }),
    );
    const replaced = await rejection(
      testClient({ maxRetries: 0 }).request(
        retrieveReservation,
        { path: { id: 1 } },
        { hooks: { beforeError: [() => frozen] } },
      ),
    );
    expect(replaced).toBe(frozen);
    expect((replaced as ShopError).attempts).toBeUndefined();
  });

  it("stamps a hook's replacement error but keeps the operation it names", async () => {
    server.use(http.get(ONE, () => HttpResponse.json(failure('SERVER_ERROR'), { status: 500 })));
    const replacement = Object.assign(
      new ConflictError({
        status: 409,
        code: 'SESSION_FULL',
        message: 'full',
        details: {},
        headers: new Headers(),
      }),
      { operation: 'reconcile.bookings' },
    );
    const error = (await rejection(
      testClient({ maxRetries: 1 }).request(
        retrieveReservation,
        { path: { id: 1 } },
        { hooks: { beforeError: [() => replacement] } },
      ),
    )) as ShopError;
    expect(error).toBe(replacement);
    expect(error).toMatchObject({ operation: 'reconcile.bookings', attempts: 2, mayHaveBeenApplied: false });
  });
});

describe("a caller's Idempotency-Key", () => {
  it('is refused before sending when empty, not text, or not printable ASCII anywhere in it', async () => {
    const seen: string[] = [];
    server.use(
      http.post(CREATE, ({ request }) => {
        seen.push(request.headers.get('idempotency-key') ?? '');
        return HttpResponse.json(ok(reservation(1)), { status: 201 });
      }),
    );
    const shop = testClient();
    const refusals: Record<string, unknown> = {};
    for (const key of ['', 42, 'clé-1', 'key-é', 'é-key', 'line\nbreak']) {
      const error = await rejection(
        shop.request(createReservation, { body: { party_size: 2 } }, { idempotencyKey: key as string }),
      );
      expect(error).toBeInstanceOf(ParamsValidationError);
      refusals[JSON.stringify(key)] = (error as ParamsValidationError).details;
    }
    expect(refusals).toEqual({
      '""': { idempotencyKey: ['must be a non-empty string'] },
      '42': { idempotencyKey: ['must be a non-empty string'] },
      '"clé-1"': { idempotencyKey: ['must be printable ASCII'] },
      '"key-é"': { idempotencyKey: ['must be printable ASCII'] },
      '"é-key"': { idempotencyKey: ['must be printable ASCII'] },
      '"line\\nbreak"': { idempotencyKey: ['must be printable ASCII'] },
    });
    expect(seen).toEqual([]);
    await shop.request(createReservation, { body: { party_size: 2 } }, { idempotencyKey: '~order 7~' });
    expect(seen).toEqual(['~order 7~']);
  });
});

describe('each retry, as logged and hooked', () => {
  it('logs the failed attempt with its fields, a status of null when nothing answered', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    let calls = 0;
    server.use(
      http.get(ONE, () => {
        calls++;
        if (calls === 1) return HttpResponse.error();
        if (calls === 2) return HttpResponse.json(failure('SERVER_ERROR'), { status: 502 });
        return HttpResponse.json(ok(reservation(1)));
      }),
    );
    const { lines, logger } = capture();
    await testClient({ logger, logLevel: 'info' }).request(retrieveReservation, { path: { id: 1 } });
    const fields = {
      operation: 'range.reservations.retrieve',
      method: 'GET',
      path: '/v1/range/reservations/{id}',
    };
    expect(lines).toEqual([
      {
        level: 'info',
        line: 'shop-mgmt: GET /v1/range/reservations/1 failed (ConnectionError); retry 1 of 2 in 0 ms',
        fields: { ...fields, attempt: 1, status: null, delayMs: 0 },
      },
      {
        level: 'info',
        line: 'shop-mgmt: GET /v1/range/reservations/1 failed (HTTP 502); retry 2 of 2 in 0 ms',
        fields: { ...fields, attempt: 2, status: 502, delayMs: 0 },
      },
    ]);
  });

  it('warns of a Retry-After it will not wait, and of nothing when an error is simply final', async () => {
    server.use(
      http.get(ONE, ({ params }) =>
        params.id === '1'
          ? HttpResponse.json(failure('RATE_LIMITED'), { status: 429, headers: { 'retry-after': '3600' } })
          : HttpResponse.json(failure('NOT_FOUND'), { status: 404 }),
      ),
    );
    const { lines, logger } = capture();
    const shop = testClient({ logger, logLevel: 'info', maxRetryAfterSeconds: 60 });
    await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    await rejection(shop.request(retrieveReservation, { path: { id: 2 } }));
    expect(lines).toEqual([
      {
        level: 'warn',
        line: 'shop-mgmt: GET /v1/range/reservations/1: not waiting Retry-After 3600 s, over maxRetryAfterSeconds (60)',
        fields: {
          operation: 'range.reservations.retrieve',
          method: 'GET',
          path: '/v1/range/reservations/{id}',
          attempt: 1,
          status: 429,
          retryAfter: 3600,
        },
      },
    ]);
  });

  it("runs the client's and the call's beforeRetry hooks, each once per retry", async () => {
    let calls = 0;
    server.use(
      http.get(ONE, () =>
        ++calls <= 2
          ? HttpResponse.json(failure('SERVER_ERROR'), { status: 503 })
          : HttpResponse.json(ok(reservation(1))),
      ),
    );
    const seen: string[] = [];
    const shop = testClient({
      hooks: { beforeRetry: [({ attempt, error }) => void seen.push(`client ${attempt} ${error.name}`)] },
    });
    const result = await shop.request(
      retrieveReservation,
      { path: { id: 1 } },
      { hooks: { beforeRetry: [({ attempt }) => void seen.push(`call ${attempt}`)] } },
    );
    expect(result.id).toBe(1);
    expect(seen).toEqual([
      'client 1 InternalServerError',
      'call 1',
      'client 2 InternalServerError',
      'call 2',
    ]);
  });

  it('raises the ConnectionError itself when no retry is left', async () => {
    server.use(http.get(ONE, () => HttpResponse.error()));
    const error = await rejection(
      testClient({ maxRetries: 1 }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ShopError).attempts).toBe(2);
  });
});
