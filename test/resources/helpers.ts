import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ClientOptions, ShopClient } from '../../src/client.js';
import { RETRY_BACKOFF, type TestOptions } from '../../src/internal/test-hooks.js';

/** Loopback only: msw answers in-process, nothing leaves the machine. */
export const BASE_URL = 'http://127.0.0.1:4010';
export const API_KEY = 'sk_test_resources_0123456789';

/** One request as it reached the server. */
export interface RecordedRequest {
  readonly method: string;
  /** The path exactly as sent, still percent-encoded. */
  readonly path: string;
  /** Decoded query parameters. */
  readonly query: Record<string, string>;
  /** The parsed JSON body, or undefined when none was sent. */
  readonly body: unknown;
  readonly headers: Headers;
}

type Responder = (request: RecordedRequest) => Response | Promise<Response>;

/** A success envelope; `meta` is added for lists. */
export function ok(
  data: unknown,
  init: { status?: number; meta?: unknown; headers?: Record<string, string> } = {},
) {
  const body = init.meta === undefined ? { status: 'ok', data } : { status: 'ok', data, meta: init.meta };
  return HttpResponse.json(body, { status: init.status ?? 200, headers: init.headers });
}

/** An error envelope as the reference's section 7 describes it. */
export function apiError(status: number, code: string, details: Record<string, unknown> = {}) {
  return HttpResponse.json(
    { status: 'error', error: { code, message: `${code} (test)`, details } },
    { status, headers: status === 429 ? { 'retry-after': '0' } : undefined },
  );
}

/**
 * Starts an msw server for the file that records every request and answers with the queued responders
 * (the last one repeats). Requests and responders are cleared after each test.
 */
export function mockApi() {
  const requests: RecordedRequest[] = [];
  let queue: Responder[] = [];
  const server = setupServer(
    http.all(`${BASE_URL}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      const recorded: RecordedRequest = {
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: text === '' ? undefined : JSON.parse(text),
        headers: request.headers,
      };
      requests.push(recorded);
      const responder = queue.length > 1 ? queue.shift() : queue[0];
      if (!responder) throw new Error(`no response queued for ${request.method} ${url.pathname}`);
      return responder(recorded);
    }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    requests.length = 0;
    queue = [];
  });
  afterAll(() => server.close());
  return {
    requests,
    /** Answers the next requests with these responders, in order; the last repeats. */
    respond(...responders: Responder[]): void {
      queue = responders;
    },
  };
}

/** A client for the mock API; no retries unless asked, and retry waits of a millisecond. */
export function client(options: { maxRetries?: number } = {}): ShopClient {
  const all: ClientOptions & TestOptions = {
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    maxRetries: options.maxRetries ?? 0,
    logLevel: 'off',
    [RETRY_BACKOFF]: { baseMs: 1, capMs: 1 },
  };
  return new ShopClient(all);
}

/** A UUID v4, the shape of a generated Idempotency-Key. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
