// Errors that help (issue 19): a ConnectionError names the URL it could not reach (no query, no key), a bad
// baseUrl is quoted whole with the likely fix, a NaN id is reported as NaN, and a VALIDATION_ERROR's field
// reasons are in its message, not only in `details`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { ConnectionError, ParamsValidationError, ShopApiError } from '../../src/core/errors/index.js';
import { createSandbox } from '../../src/testing/index.js';
import type { SandboxServer } from '../../src/testing/server.js';

const KEY = 'sk_test_error_messages_key_0123456789';

describe('error messages', () => {
  let server: SandboxServer;
  const sandbox = createSandbox();
  beforeAll(async () => {
    server = await sandbox.listen();
  });
  afterAll(() => server.close());

  it('ConnectionError names the URL it could not reach, without the query or the key', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((done) => probe.close(() => done()));
    const shop = new ShopClient({
      apiKey: KEY,
      baseUrl: `http://127.0.0.1:${port}`,
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = await shop.range.reservations.list({ status: 'booked' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    const { message } = error as Error;
    expect(message).toContain(`to http://127.0.0.1:${port}/v1/range/reservations:`);
    expect(message).toMatch(/ECONNREFUSED/);
    expect(message).not.toContain('status=booked');
    expect(message).not.toContain(KEY);
  });

  it('quotes a baseUrl without a scheme whole, with the likely fix', () => {
    expect(() => new ShopClient({ apiKey: KEY, baseUrl: 'localhost:45610' })).toThrow(
      'baseUrl must be an http or https URL, got "localhost:45610" (did you mean "http://localhost:45610"?)',
    );
    expect(() => new ShopClient({ apiKey: KEY, baseUrl: 'not a url' })).toThrow(/got "not a url"/);
  });

  it('reports a NaN id as NaN', async () => {
    const shop = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url, logLevel: 'off' });
    const error = await shop.range.reservations.retrieve(Number('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParamsValidationError);
    expect((error as Error).message).toMatch(/must be an integer id, got NaN/);
  });

  it("puts a VALIDATION_ERROR's field reasons in its message", async () => {
    const shop = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url, logLevel: 'off' });
    const error = await shop.range.reservations.list({ limit: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopApiError);
    const apiError = error as ShopApiError;
    expect(apiError.code).toBe('VALIDATION_ERROR');
    const [field, reasons] = Object.entries(apiError.details as Record<string, string[]>)[0]!;
    expect(apiError.message).toContain(`(${field}: ${reasons.join(', ')})`);
  });
});
