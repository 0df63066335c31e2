import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../../src/core/errors/index.js';
import type { FetchLike } from '../../src/core/transport/transport.js';
import { API_KEY, rejection, retrieveReservation, testClient } from './support.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A fetch failing the way undici does (TypeError 'fetch failed' over a system error), naming secrets. */
function leakyFetch(): FetchLike {
  return (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const system = Object.assign(
      new Error(`connect ECONNREFUSED via proxy (Authorization: Bearer ${API_KEY}, hook ${SECRET})`),
      { code: 'ECONNREFUSED', cause: new Error(`socket for ${url} key ${API_KEY}`) },
    );
    return Promise.reject(new TypeError(`fetch failed for key ${API_KEY}`, { cause: system }));
  };
}

async function connectionError(): Promise<ConnectionError> {
  const error = await rejection(
    testClient({ fetch: leakyFetch(), maxRetries: 0 }).request(retrieveReservation, { path: { id: 1 } }),
  );
  expect(error).toBeInstanceOf(ConnectionError);
  return error as ConnectionError;
}

describe("a ConnectionError's cause", () => {
  it('prints no secret through util.inspect, which console.error and pino use, however deep', async () => {
    const error = await connectionError();
    for (const text of [inspect(error), inspect(error, { depth: Number.POSITIVE_INFINITY }), String(error)]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(SECRET);
    }
  });

  it("keeps what debugging needs: the runtime error's name, redacted message, code and nested cause", async () => {
    const { cause } = await connectionError();
    expect(cause).toBeInstanceOf(Error);
    const outer = cause as Error & { cause?: unknown };
    expect(outer.name).toBe('TypeError');
    expect(outer.message).toBe('fetch failed for key [redacted]');
    const system = outer.cause as Error & { code?: unknown; cause?: unknown };
    expect(system).toBeInstanceOf(Error);
    expect(system.message).toBe(
      'connect ECONNREFUSED via proxy (Authorization: Bearer [redacted], hook [redacted])',
    );
    expect(system.code).toBe('ECONNREFUSED');
    expect((system.cause as Error).message).toMatch(
      /^socket for http:\/\/127\.0\.0\.1:4010\/v1\/range\/reservations\/1 key \[redacted\]$/,
    );
    expect(inspect(outer)).toMatch(/^TypeError: fetch failed for key \[redacted\]\n/);
  });

  it('is the redacted text of a thrown non-Error, and ends a cause chain that loops', async () => {
    const thrown = await rejection(
      testClient({ fetch: () => Promise.reject(`refused, key ${API_KEY}`), maxRetries: 0 }).request(
        retrieveReservation,
        { path: { id: 1 } },
      ),
    );
    expect((thrown as ConnectionError).cause).toBe('refused, key [redacted]');

    const looping = new Error(`loop ${API_KEY}`);
    (looping as { cause?: unknown }).cause = looping;
    const error = await rejection(
      testClient({ fetch: () => Promise.reject(looping), maxRetries: 0 }).request(retrieveReservation, {
        path: { id: 1 },
      }),
    );
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY })).not.toContain(API_KEY);
  });
});
