// Calls the types forbid but JavaScript allows (no options, a header object holding a number): each gets a
// typed error saying what to pass, never a bare TypeError; through a handler, an answer, never a rejection.
import { describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  readDeliveryHeaders,
  signPayload,
  verifyWebhook,
  verifyWebhookSignature,
  WebhookConfigurationError,
  type WebhookHeaders,
} from '../../src/webhooks/index.js';
import { deliveryHeaders, eventBody, unixNow } from './helpers.js';

const SECRET = 'whsec_bad_calls_secret';

/** The error a call threw or rejected with. */
async function errorOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

function expectConfigurationError(error: unknown, message: RegExp) {
  expect(error).toBeInstanceOf(WebhookConfigurationError);
  expect((error as Error).message).toMatch(message);
}

describe('verifyWebhook, verifyWebhookSignature, signPayload and createWebhookHandler without options', () => {
  it.each([
    ['verifyWebhook', () => verifyWebhook(undefined as never)],
    ['verifyWebhookSignature', () => verifyWebhookSignature(null as never)],
    ['signPayload', () => signPayload(undefined as never)],
    ['createWebhookHandler', () => createWebhookHandler(undefined as never)],
  ])('%s says to pass an options object', async (name, call) => {
    expectConfigurationError(await errorOf(call), new RegExp(`${name}\\(\\) needs an options object`));
  });

  it('says the headers are missing, rather than that the delivery is unsigned', async () => {
    const body = eventBody();
    const error = await errorOf(() => verifyWebhook({ body, secret: SECRET } as never));
    expectConfigurationError(error, /headers/);
  });
});

describe('a header object holding something other than a string or an array', () => {
  const body = eventBody();
  const signed = deliveryHeaders(body, SECRET, unixNow());

  it('is a configuration error naming the header, for verifyWebhook and readDeliveryHeaders', async () => {
    const headers = { ...signed, 'service-signature': 42 } as unknown as WebhookHeaders;
    const error = await errorOf(() => verifyWebhook({ body, headers, secret: SECRET }));
    expectConfigurationError(error, /service-signature.*number/);
    expect(() => readDeliveryHeaders({ 'Service-Attempt': { n: 2 } } as never)).toThrow(
      WebhookConfigurationError,
    );
  });

  it('is answered 500 by handle(), with the error told to onError, never a rejection', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, onError });
    const headers = { ...signed, 'service-event-id': 7 } as unknown as WebhookHeaders;
    await expect(handler.handle({ body, headers })).resolves.toMatchObject({
      status: 500,
      outcome: 'failed',
    });
    await expect(handler.handle(undefined as never)).resolves.toMatchObject({ status: 500 });
    expect(onError).toHaveBeenCalledTimes(2);
    expectConfigurationError(onError.mock.calls[0]![0], /service-event-id/);
    expectConfigurationError(onError.mock.calls[1]![0], /handle\(\) needs/);
  });

  it('is answered 500 by the Node adapter, whose promise resolves (it is often not awaited)', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, onError });
    const response = { statusCode: 0, headers: {} as Record<string, string>, body: '' };
    const writable = {
      get statusCode() {
        return response.statusCode;
      },
      set statusCode(status: number) {
        response.statusCode = status;
      },
      setHeader: (name: string, value: string) => {
        response.headers[name] = value;
      },
      end: (text: string) => {
        response.body = text;
      },
    };
    const request = {
      method: 'POST',
      headers: { ...signed, 'service-attempt': 1 } as never,
      body: Buffer.from(body),
      async *[Symbol.asyncIterator]() {},
    };
    await expect(handler.node(request, writable)).resolves.toBeUndefined();
    expect(response).toMatchObject({ statusCode: 500, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(response.body)).toEqual({ error: { type: 'internal_error' } });
    await expect(handler.node(undefined as never, writable)).resolves.toBeUndefined();
    expect(onError).toHaveBeenCalledTimes(2);
    expectConfigurationError(onError.mock.calls[1]![0], /needs Node's IncomingMessage/);
  });

  it('is answered 500 by the web handler when it is not given a Request', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, onError });
    const response = await handler({ method: 'POST' } as never);
    expect(response.status).toBe(500);
    expectConfigurationError(onError.mock.calls[0]![0], /takes a fetch Request/);
  });
});
