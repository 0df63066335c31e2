// Issue 32 item 12: the API never redirects (reference: "Redirects are not followed; a 3xx is a failure"),
// yet calls followed a 307 to another origin (Authorization dropped, the other origin's answer taken as
// the result) and a redirect loop became a retried ConnectionError. A 3xx is now a RedirectError naming
// where it pointed, never followed and never retried. Over two real servers on 127.0.0.1 (two origins):
// what matters is what the runtime's fetch does with a 3xx on the wire.
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, RedirectError } from '../../src/core/errors/index.js';
import { type ClientOptions, ShopClient } from '../../src/index.js';
import { RETRY_BACKOFF, type TestOptions } from '../../src/internal/test-hooks.js';
import { json, useLoopback } from './loopback.js';
import { API_KEY, createReservation, ok, rejection, reservation, retrieveReservation } from './support.js';

const api = useLoopback();
/** Another origin, which answers every request with a valid reservation: nothing may reach it. */
const elsewhere = useLoopback();

function client(options: Partial<ClientOptions> = {}) {
  const all: ClientOptions & TestOptions = {
    apiKey: API_KEY,
    baseUrl: api.baseUrl,
    logLevel: 'off',
    [RETRY_BACKOFF]: { baseMs: 1, capMs: 5 },
    ...options,
  };
  return new ShopClient(all);
}

function redirectTo(status: number, location: () => string) {
  api.handle((_seen, res) => {
    res.writeHead(status, { location: location(), 'content-type': 'text/plain' });
    res.end('Moved');
  });
  elsewhere.handle((_seen, res) => json(res, 200, ok(reservation(99))));
}

describe('a 3xx is a typed error naming its location, never followed (issue 32 item 12)', () => {
  it.each([301, 302, 303, 307, 308])(
    'HTTP %i to another origin: nothing sent there, not retried',
    async (status) => {
      const target = () => `${elsewhere.baseUrl}/v1/range/reservations/1`;
      redirectTo(status, target);
      const error = await rejection(client().request(retrieveReservation, { path: { id: 1 } }));
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ name: 'RedirectError', status, location: target() });
      expect((error as Error).message).toContain(`HTTP ${status}`);
      expect((error as Error).message).toContain(target());
      expect(api.seen).toHaveLength(1);
      expect(elsewhere.seen).toHaveLength(0);
    },
  );

  it('a POST answered 307 is not sent again, here or there', async () => {
    redirectTo(307, () => `${elsewhere.baseUrl}/v1/range/reservations`);
    const error = await rejection(client().request(createReservation, { body: { party_size: 2 } }));
    expect(error).toBeInstanceOf(RedirectError);
    expect(api.seen).toHaveLength(1);
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('a redirect loop is one request and a RedirectError, not a retried ConnectionError', async () => {
    redirectTo(302, () => `${api.baseUrl}/v1/range/reservations/1`);
    const error = await rejection(
      client({ maxRetries: 3 }).request(retrieveReservation, { path: { id: 1 } }),
    );
    expect(error).toBeInstanceOf(RedirectError);
    expect(api.seen).toHaveLength(1);
  });

  it('names a relative location as the absolute URL it points to', async () => {
    redirectTo(308, () => '/v2/range/reservations/1');
    const error = await rejection(client().request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toMatchObject({ location: `${api.baseUrl}/v2/range/reservations/1` });
  });

  it('a 3xx without a location says so', async () => {
    api.handle((_seen, res) => {
      res.writeHead(300, { 'content-type': 'text/plain' });
      res.end('Choices');
    });
    const error = await rejection(client().request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toMatchObject({ name: 'RedirectError', status: 300, location: null });
    expect(api.seen).toHaveLength(1);
  });

  it('is the same through a client with hooks and a derived client', async () => {
    redirectTo(307, () => `${elsewhere.baseUrl}/v1/range/reservations/1`);
    const hooked = client({ hooks: { afterResponse: [() => {}] } }).withOptions({ maxRetries: 2 });
    const error = await rejection(hooked.request(retrieveReservation, { path: { id: 1 } }));
    expect(error).toBeInstanceOf(RedirectError);
    expect(api.seen).toHaveLength(1);
    expect(elsewhere.seen).toHaveLength(0);
  });
});
