import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { ClientOptions } from '../../src/client.js';
import { defineOperation } from '../../src/core/api/operation.js';
import { ParamsValidationError, ShopError } from '../../src/core/errors/index.js';
import { outputIsInput } from '../../src/core/validation/validation.js';
import { OPERATION_SCHEMAS } from '../../src/generated/operation-schemas.js';
import type { ShopClient } from '../../src/index.js';
import {
  API_KEY,
  listReservations,
  recordRequests,
  rejection,
  retrieveReservation,
  testClient,
  useMswServer,
} from './support.js';

const server = useMswServer();

const KEYS = [
  ['a string key', API_KEY],
  ['a key function', () => API_KEY],
] as const;

describe.each(KEYS)('Authorization with %s', (_kind, apiKey) => {
  const retrieve = (shop: ShopClient, headers?: ClientOptions['defaultHeaders']) =>
    shop.request(retrieveReservation, { path: { id: 1 } }, headers === undefined ? undefined : { headers });

  it('sends the key as a bearer token', async () => {
    const seen = recordRequests(server);
    await retrieve(testClient({ apiKey }));
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it("sends a call's own Authorization instead, and none when the call removes it", async () => {
    const seen = recordRequests(server);
    const shop = testClient({ apiKey });
    await retrieve(shop, { Authorization: 'Basic cGFydG5lcg==' });
    await retrieve(shop, { authorization: null });
    await retrieve(shop, { 'x-other': 'kept' });
    expect(seen.map((request) => request.headers.get('authorization'))).toEqual([
      'Basic cGFydG5lcg==',
      null,
      `Bearer ${API_KEY}`,
    ]);
  });

  it('sends an Authorization from defaultHeaders or withOptions headers instead of the key', async () => {
    const seen = recordRequests(server);
    const shop = testClient({ apiKey, defaultHeaders: { authorization: 'Custom default' } });
    await retrieve(shop);
    await retrieve(testClient({ apiKey }).withOptions({ headers: { authorization: 'Custom derived' } }));
    expect(seen.map((request) => request.headers.get('authorization'))).toEqual([
      'Custom default',
      'Custom derived',
    ]);
  });

  it("sends a derived client's own key over an Authorization its parent's defaultHeaders hold", async () => {
    const seen = recordRequests(server);
    const parent = testClient({ apiKey, defaultHeaders: { authorization: 'Custom default' } });
    await retrieve(parent.withOptions({ apiKey: 'sk_test_child_key_42' }));
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer sk_test_child_key_42');
  });
});

// Each option with bounds, a value it refuses, and the problem every place words the same way.
const REFUSED = [
  ['timeout', 0, 'must be a positive number of milliseconds up to 2147483647, got 0'],
  ['deadline', -5, 'must be a positive number of milliseconds up to 2147483647, got -5'],
  ['maxRetries', 1.5, 'must be a non-negative integer, got 1.5'],
  ['responseValidation', 'loud', "must be 'strict', 'warn' or 'off', got loud"],
] as const;

describe('one checker for the options with bounds', () => {
  it.each(REFUSED)(
    'refuses %s = %j alike for the client, a derived client and one call',
    async (name, value, problem) => {
      const seen = recordRequests(server);
      const bad = { [name]: value } as never;
      expect(() => testClient(bad)).toThrow(new ShopError(`new ShopClient(): ${name} ${problem}`));
      expect(() => testClient().withOptions(bad)).toThrow(
        new ShopError(`new ShopClient(): ${name} ${problem}`),
      );
      const error = await rejection(testClient().request(retrieveReservation, { path: { id: 1 } }, bad));
      expect(error).toBeInstanceOf(ParamsValidationError);
      expect((error as ParamsValidationError).details).toEqual({ [name]: [problem] });
      expect(seen).toHaveLength(0);
    },
  );

  it('refuses the client-only bounds at construction and a list call’s maxPages before sending', async () => {
    const seen = recordRequests(server);
    expect(() => testClient({ maxRetryAfterSeconds: -1 })).toThrow(
      'new ShopClient(): maxRetryAfterSeconds must be a number of seconds from 0 to 2147483, got -1',
    );
    expect(() => testClient({ maxResponseBytes: 0 })).toThrow(
      'new ShopClient(): maxResponseBytes must be a positive integer of bytes up to 268435456, got 0',
    );
    const error = await rejection(testClient().list(listReservations, {}, { maxPages: 0 }));
    expect((error as ParamsValidationError).details).toEqual({
      maxPages: ['must be a positive integer, got 0'],
    });
    expect(seen).toHaveLength(0);
  });
});

describe("the answer's check", () => {
  it('is told by the generator that every generated result changes no value, and the schemas agree', () => {
    const entries = Object.entries(OPERATION_SCHEMAS);
    expect(entries.length).toBeGreaterThan(50);
    for (const [id, schemas] of entries) {
      expect([id, schemas.resultIsInput]).toEqual([id, true]);
      expect([id, schemas.result === null || outputIsInput(schemas.result)]).toEqual([id, true]);
    }
  });

  it("finds a transform, a default, a coercion or an overwriting check in a schema of the caller's own", () => {
    expect(outputIsInput(z.looseObject({ id: z.number().int(), tags: z.array(z.string()) }))).toBe(true);
    expect(outputIsInput(z.object({ at: z.string().transform((at) => new Date(at)) }))).toBe(false);
    expect(outputIsInput(z.object({ n: z.number().default(1) }))).toBe(false);
    expect(outputIsInput(z.object({ n: z.coerce.number() }))).toBe(false);
    expect(outputIsInput(z.object({ name: z.string().trim() }))).toBe(false);
  });

  it("returns a hand-written schema's output: its transforms applied", async () => {
    recordRequests(server);
    const op = defineOperation({
      id: 'widgets.retrieve',
      method: 'GET',
      path: '/v1/range/reservations/{id}',
      result: z.looseObject({ id: z.number(), starts_at: z.string().transform((at) => new Date(at)) }),
    });
    const data = await testClient().request(op, { path: { id: 1 } });
    expect(data.starts_at).toBeInstanceOf(Date);
    expect(data).toMatchObject({ id: 1, party_size: 2 });
  });
});

describe('the test-only back-off', () => {
  it('is no key of the public ClientOptions', () => {
    expectTypeOf<Extract<keyof ClientOptions, symbol>>().toEqualTypeOf<never>();
  });
});
