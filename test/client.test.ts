import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShopClient } from '../src/client.js';
import { ParamsValidationError, ShopError } from '../src/core/errors/index.js';
import type { FetchLike } from '../src/core/transport/transport.js';
import { VERSION } from '../src/version.js';
import {
  API_KEY,
  BASE_URL,
  createReservation,
  recordRequests,
  retrieveReservation,
  testClient,
  useMswServer,
} from './core/support.js';

const server = useMswServer();

afterEach(() => vi.unstubAllEnvs());

describe('new ShopClient(options)', () => {
  it('takes the key and base URL from SHOP_API_KEY and SHOP_API_BASE_URL when options leave them out', async () => {
    vi.stubEnv('SHOP_API_KEY', 'sk_from_env');
    vi.stubEnv('SHOP_API_BASE_URL', 'http://127.0.0.1:4010');
    const seen = recordRequests(server);
    await new ShopClient({ logLevel: 'off' }).request(retrieveReservation, { path: { id: 1 } });
    expect(seen[0]?.url).toBe('http://127.0.0.1:4010/v1/range/reservations/1');
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer sk_from_env');
  });

  it('refuses to start without an API key, saying where one comes from', () => {
    vi.stubEnv('SHOP_API_KEY', '');
    expect(() => new ShopClient({ baseUrl: BASE_URL })).toThrow(ShopError);
    expect(() => new ShopClient({ baseUrl: BASE_URL })).toThrow(/apiKey.*SHOP_API_KEY/);
  });

  it('refuses a base URL that is missing or not http(s)', () => {
    vi.stubEnv('SHOP_API_BASE_URL', '');
    expect(() => new ShopClient({ apiKey: API_KEY })).toThrow(/SHOP_API_BASE_URL/);
    expect(() => new ShopClient({ apiKey: API_KEY, baseUrl: 'ftp://files.example.com' })).toThrow(
      /http or https/,
    );
    expect(() => new ShopClient({ apiKey: API_KEY, baseUrl: 'api.example.com' })).toThrow(
      /absolute http\(s\) URL/,
    );
    expect(() => new ShopClient({ apiKey: API_KEY, baseUrl: 'https://user:pw@api.example.com' })).toThrow(
      /credentials/,
    );
  });

  it('refuses options of the wrong kind at construction', () => {
    expect(() => testClient({ timeout: -1 })).toThrow(/timeout/);
    expect(() => testClient({ maxRetries: 1.5 })).toThrow(/maxRetries/);
    expect(() => testClient({ throttle: { requestsPerMinute: 0 } })).toThrow(/throttle/);
    expect(() => testClient({ logLevel: 'loud' as 'debug' })).toThrow(/logLevel/);
  });

  it('refuses waits a timer cannot hold (setTimeout fires at once past 2^31 - 1 ms)', () => {
    // 2_147_483 s is the most a timer can wait; the seconds option was checked against the ms bound.
    expect(() => testClient({ maxRetryAfterSeconds: 2_147_484 })).toThrow(/maxRetryAfterSeconds/);
    expect(() => testClient({ maxRetryAfterSeconds: 2_147_483 })).not.toThrow();
    expect(() => testClient({ timeout: 2_147_483_648 })).toThrow(/timeout/);
    // One request per 2 million minutes would be an interval past the timer's bound.
    expect(() => testClient({ throttle: { requestsPerMinute: 0.000_000_5 } })).toThrow(/throttle/);
    expect(() => testClient({ throttle: { requestsPerMinute: 0.01 } })).not.toThrow();
  });

  it.each([
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/v1/range/reservations/7'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010/v1/range/reservations/7'],
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1/range/reservations/7'],
    ['http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010/v1/range/reservations/7'],
    ['http://127.0.0.1:4010/shop-proxy/v1', 'http://127.0.0.1:4010/shop-proxy/v1/range/reservations/7'],
  ])('adds /v1 to base URL %s exactly once', async (baseUrl, expected) => {
    const seen = recordRequests(server);
    await testClient({ baseUrl }).request(retrieveReservation, { path: { id: 7 } });
    expect(seen[0]?.url).toBe(expected);
  });
});

describe('request headers', () => {
  it('sends the bearer key, JSON Accept and a User-Agent naming the SDK version and the runtime', async () => {
    const seen = recordRequests(server);
    await testClient().request(retrieveReservation, { path: { id: 1 } });
    const headers = seen[0]?.headers;
    expect(headers?.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(headers?.get('accept')).toBe('application/json');
    expect(headers?.get('user-agent')).toBe(
      `shop-mgmt/${VERSION} (node/${process.versions.node}; ${process.platform} ${process.arch})`,
    );
    expect(headers?.has('content-type')).toBe(false);
  });

  it("names the package's own version: VERSION equals package.json's", () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
  });

  it('sends Content-Type: application/json with a JSON body', async () => {
    const seen = recordRequests(server);
    await testClient().request(createReservation, { body: { party_size: 2 } });
    expect(seen[0]?.headers.get('content-type')).toBe('application/json');
    expect(await seen[0]?.json()).toEqual({ party_size: 2 });
  });

  it('merges the caller headers last, whatever their case', async () => {
    const seen = recordRequests(server);
    await testClient().request(
      retrieveReservation,
      { path: { id: 1 } },
      { headers: { 'X-Trace-Id': 'abc', Accept: 'application/vnd.shop+json' } },
    );
    expect(seen[0]?.headers.get('x-trace-id')).toBe('abc');
    expect(seen[0]?.headers.get('accept')).toBe('application/vnd.shop+json');
  });

  it('leaves a caller header given as undefined out instead of dropping the others', async () => {
    const seen = recordRequests(server);
    await testClient().request(
      retrieveReservation,
      { path: { id: 1 } },
      { headers: { 'x-trace-id': undefined } },
    );
    expect(seen[0]?.headers.has('x-trace-id')).toBe(false);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it('refuses a header value fetch would refuse, with a typed error and nothing sent', async () => {
    const seen = recordRequests(server);
    const call = testClient().request(
      retrieveReservation,
      { path: { id: 1 } },
      { headers: { 'x-note': 'line\nbreak' } },
    );
    await expect(call).rejects.toMatchObject({ name: 'ParamsValidationError', code: 'VALIDATION_ERROR' });
    expect(seen).toHaveLength(0);
  });
});

describe('request headers beyond a plain record', () => {
  it('refuses a value outside Latin-1 locally, as ParamsValidationError, instead of a retried ConnectionError', async () => {
    const seen = recordRequests(server);
    const call = testClient().request(
      retrieveReservation,
      { path: { id: 1 } },
      { headers: { 'x-customer-name': 'Zoë Łukasiewicz' } },
    );
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as ParamsValidationError).details.headers?.[0]).toMatch(/x-customer-name.*Latin-1/);
    expect(seen).toHaveLength(0);
    // Latin-1 itself is a valid header value and goes out.
    await testClient().request(retrieveReservation, { path: { id: 1 } }, { headers: { 'x-name': 'Zoë' } });
    expect(seen).toHaveLength(1);
  });

  it('takes a Headers instance and an array of pairs, as fetch does', async () => {
    const seen = recordRequests(server);
    const shop = testClient();
    await shop.request(
      retrieveReservation,
      { path: { id: 1 } },
      { headers: new Headers({ 'X-Trace-Id': 'from-headers' }) },
    );
    await shop.request(retrieveReservation, { path: { id: 1 } }, { headers: [['X-Trace-Id', 'from-pairs']] });
    expect(seen.map((request) => request.headers.get('x-trace-id'))).toEqual(['from-headers', 'from-pairs']);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it('removes a default header the caller sets to undefined or null', async () => {
    const seen = recordRequests(server);
    await testClient().request(
      retrieveReservation,
      { path: { id: 1 } },
      { headers: { 'User-Agent': undefined, accept: null } },
    );
    expect(seen[0]?.headers.has('accept')).toBe(false);
    expect(seen[0]?.headers.get('user-agent') ?? '').not.toMatch(/shop-mgmt/);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it('refuses headers of a shape fetch does not take, saying which shapes it does', async () => {
    const seen = recordRequests(server);
    const error = await testClient()
      .request(retrieveReservation, { path: { id: 1 } }, { headers: 'x-a: 1' as never })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as Error).message).toMatch(/Headers, an array of \[name, value\] pairs or an object/);
    expect(seen).toHaveLength(0);
  });
});

describe('each request gets its own headers', () => {
  it('does not let a custom fetch that mutates the request headers change later requests or retries', async () => {
    const seen = recordRequests(server);
    let calls = 0;
    // ky hands fetch a Request; its headers are mutable.
    const mutatingFetch: FetchLike = (input, init) => {
      calls++;
      const request = input as Request;
      request.headers.set(`x-added-by-call-${calls}`, 'yes');
      request.headers.set('accept', 'text/leaked');
      // The first attempt of the second call fails before sending, so it is retried.
      if (calls === 2) return Promise.reject(new TypeError('fetch failed'));
      return globalThis.fetch(request, init);
    };
    const shop = testClient({ fetch: mutatingFetch });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    await shop.request(retrieveReservation, { path: { id: 1 } });
    expect(calls).toBe(3);
    expect(seen).toHaveLength(2);
    const second = seen[1]?.headers;
    expect(second?.has('x-added-by-call-1')).toBe(false);
    expect(second?.has('x-added-by-call-2')).toBe(false);
    expect(second?.get('x-added-by-call-3')).toBe('yes');
  });
});

describe('the API key stays private', () => {
  it('does not show in util.inspect or JSON of the client', () => {
    const shop = testClient();
    expect(inspect(shop, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.stringify(shop)).not.toContain(API_KEY);
  });
});

describe('the package root', () => {
  it('exports the operation table, but no zod schema objects and no value list (shop-mgmt/schemas has them)', async () => {
    const root = (await import('../src/index.js')) as Record<string, unknown>;
    expect(Object.keys(root).filter((name) => /SCHEMAS?$/i.test(name))).toEqual([]);
    expect(root.RANGE_RESERVATION_STATUSES).toBeUndefined();
    expect(root.operations).toBeTypeOf('object');
  });

  it('leaves the schemas, EVENT_PAYLOAD_SCHEMAS among them, to shop-mgmt/schemas', async () => {
    const schemas = (await import('../src/schemas.js')) as Record<string, unknown>;
    const payloads = schemas.EVENT_PAYLOAD_SCHEMAS as Record<string, { _zod: unknown }>;
    expect(payloads['range.reservation.booked']?._zod).toBeDefined();
    expect(schemas.RangeReservationSchema).toBe(
      (schemas.OPERATION_SCHEMAS as Record<string, { result: unknown }>)['range.reservations.retrieve']
        ?.result,
    );
  });
});
