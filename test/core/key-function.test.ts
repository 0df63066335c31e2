// `apiKey` as a function (key rolling, a vault): read before each attempt, every key it gives redacted.
import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConnectionError, ShopError } from '../../src/core/errors/index.js';
import type { Logger } from '../../src/core/observe/logger.js';
import type { FetchLike } from '../../src/core/transport/transport.js';
import {
  BASE_URL,
  failure,
  ok,
  rejection,
  reservation,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();
const URL_PATTERN = `${BASE_URL}/v1/range/reservations/:id`;
const KEYS = ['sk_live_first_key_0001', 'sk_live_rolled_key_0002', 'sk_live_rolled_key_0003'];

function lines(): { logger: Logger; text: () => string } {
  const out: string[] = [];
  const push = (...args: unknown[]) => out.push(args.map((arg) => inspect(arg, { depth: 5 })).join(' '));
  return { logger: { debug: push, info: push, warn: push, error: push }, text: () => out.join('\n') };
}

describe('apiKey as a function', () => {
  it('is read before each attempt, so a retry after a rollover sends the new key', async () => {
    const sent: (string | null)[] = [];
    server.use(
      http.get(URL_PATTERN, ({ request }) => {
        sent.push(request.headers.get('authorization'));
        return sent.length === 1
          ? HttpResponse.json(failure('SERVER_ERROR'), { status: 503 })
          : HttpResponse.json(ok(reservation(1)));
      }),
    );
    let reads = 0;
    const shop = testClient({ apiKey: async () => KEYS[reads++] ?? 'sk_none' });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(sent).toEqual([`Bearer ${KEYS[0]}`, `Bearer ${KEYS[1]}`]);
  });

  it('keeps every key it gave out of logs, error messages and causes', async () => {
    let reads = 0;
    let attempt = 0;
    // Every failure names the key it was sent with: a proxy that echoes headers, a runtime quoting them.
    const leakyFetch: FetchLike = async (input) => {
      const key = (input as Request).headers.get('authorization') ?? '';
      attempt++;
      if (attempt === 1)
        return Response.json(failure('SERVER_ERROR', `upstream saw ${key.slice(7)}`), { status: 500 });
      throw new TypeError(`fetch failed with ${key.slice(7)}`, {
        cause: new Error(`socket ${key.slice(7)}`),
      });
    };
    const log = lines();
    const shop = testClient({
      apiKey: () => KEYS[reads++] ?? 'sk_none',
      fetch: leakyFetch,
      logger: log.logger,
      logLevel: 'debug',
    });
    const error = await rejection(shop.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(ConnectionError);
    const everything = `${log.text()}\n${inspect(error, { depth: 10 })}\n${(error as Error).message}`;
    for (const key of KEYS) expect(everything).not.toContain(key);
    expect(everything).toContain('[redacted]');
    expect(reads).toBe(3);
  });

  it('fails the call with a typed error when the function throws or gives no usable key', async () => {
    const thrown = await rejection(
      testClient({ apiKey: () => Promise.reject(new Error('vault sealed')) }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(thrown).toBeInstanceOf(ShopError);
    expect((thrown as Error).message).toBe('The apiKey function threw; no request was sent');
    const empty = await rejection(
      testClient({ apiKey: () => '' }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect((empty as Error).message).toMatch(/must return a string of printable characters/);
  });

  it('is accepted by withOptions, the derived key redacted as well', async () => {
    const sent: (string | null)[] = [];
    server.use(
      http.get(URL_PATTERN, ({ request }) => {
        sent.push(request.headers.get('authorization'));
        return HttpResponse.json(failure('SERVER_ERROR', `echo ${request.headers.get('authorization')}`), {
          status: 500,
        });
      }),
    );
    const child = testClient().withOptions({ apiKey: () => KEYS[2] ?? '', maxRetries: 0 });
    const error = await rejection(child.request(retrieveReservation, { path: { id: 1 } }));
    expect(sent).toEqual([`Bearer ${KEYS[2]}`]);
    expect((error as Error).message).not.toContain(KEYS[2]);
  });
});
