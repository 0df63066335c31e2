// The delivery headers other than the signature's `t` and `v1` are not signed: whoever posts chooses them. No
// error message or answer may quote one back. A forged Service-Event-Id holding the secret used to land in
// the invalid_payload message (and from there in the receiver's logs).
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  verifyWebhook,
  verifyWebhookSignature,
  type WebhookHeaders,
} from '../../src/webhooks/index.js';
import { deliveryHeaders, eventBody, signatureHeader, unixNow } from './helpers.js';
import { serveNode, serveWeb, type TestServer } from './server.js';

const SECRET = 'whsec_unsigned_headers_0123456789';
/** What a forger puts in a header: the secret, markup, quotes and something long enough to be clipped. */
const JUNK = `${SECRET} <script>alert(1)</script> "x" \\ ${'J'.repeat(120)} END_OF_JUNK`;
const MARKERS = [SECRET, 'unsigned_headers_0123456789', '<script>', 'END_OF_JUNK', 'JJJJJJJJ'];

const FORGEABLE = [
  'service-event',
  'service-event-id',
  'service-delivery-id',
  'service-attempt',
  'service-signature',
] as const;

function expectNoJunk(text: string) {
  for (const marker of MARKERS) expect(text).not.toContain(marker);
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected the delivery to be refused');
    },
    (error: unknown) => error as Error,
  );
}

describe('verifyWebhook never quotes an unsigned header', () => {
  const now = 1_800_000_000;

  // Delivery-Id and Attempt are checked against nothing signed, so they refuse nothing; these three refuse.
  it.each(['service-event', 'service-event-id', 'service-signature'])(
    '%s holding the secret and junk, on an authentic body',
    async (name) => {
      const body = eventBody();
      const headers: WebhookHeaders = { ...deliveryHeaders(body, SECRET, now), [name]: JUNK };
      const error = await rejection(verifyWebhook({ body, headers, secret: SECRET, now }));
      expect(error).toMatchObject({ name: 'WebhookVerificationError' });
      expectNoJunk(error.message);
      expectNoJunk(String(error.stack));
    },
  );

  it('refuses a forged Service-Event-Id and names the signed id only', async () => {
    const body = eventBody();
    const id = (JSON.parse(body) as { id: string }).id;
    const headers = { ...deliveryHeaders(body, SECRET, now), 'service-event-id': JUNK };
    const error = await rejection(verifyWebhook({ body, headers, secret: SECRET, now }));
    expect(error).toMatchObject({ reason: 'invalid_payload' });
    expect(error.message).toContain(`"${id}"`);
    expect(error.message).toMatch(/Service-Event-Id header disagrees/);
  });

  it('keeps junk in every header out of each refusal: mismatch, malformed, stale', async () => {
    const body = eventBody();
    const all = Object.fromEntries(FORGEABLE.map((name) => [name, JUNK]));
    const cases: Record<string, string>[] = [
      // No v1 matches (junk everywhere else).
      { ...all, 'service-signature': signatureHeader('whsec_someone_else', now, body) },
      // Two timestamps, a part without "=", a t that is not digits.
      { ...all, 'service-signature': `t=${now},t=${now},v1=${'a'.repeat(64)},${JUNK}` },
      { ...all, 'service-signature': `t=${JUNK},v1=${'a'.repeat(64)}` },
      // Authentic but an hour old.
      { ...all, 'service-signature': signatureHeader(SECRET, now - 3600, body) },
    ];
    for (const headers of cases) {
      for (const verify of [verifyWebhook, verifyWebhookSignature]) {
        const error = await rejection(verify({ body, headers, secret: SECRET, now }));
        expect(error).toMatchObject({ name: 'WebhookVerificationError' });
        expectNoJunk(error.message);
      }
    }
  });
});

describe.each([
  ['node', serveNode],
  ['web', serveWeb],
] as const)('the %s handler never quotes an unsigned header', (_adapter, serve) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it.each(FORGEABLE)('%s holding the secret and junk: not in the answer, not in the error', async (name) => {
    const onError = vi.fn();
    const onEvent = vi.fn();
    const server = await serve(createWebhookHandler({ secret: SECRET, onError, onEvent }));
    servers.push(server);
    const body = eventBody();
    const response = await fetch(server.url, {
      method: 'POST',
      body,
      headers: { ...deliveryHeaders(body, SECRET, unixNow()), [name]: JUNK },
    });
    const text = await response.text();
    expectNoJunk(text);
    // Delivery-Id and Attempt are not checked against anything signed: the delivery is processed.
    const processed = name === 'service-delivery-id' || name === 'service-attempt';
    expect(response.status).toBe(processed ? 200 : 400);
    expect(onEvent).toHaveBeenCalledTimes(processed ? 1 : 0);
    expect(onError).toHaveBeenCalledTimes(processed ? 0 : 1);
    for (const [error] of onError.mock.calls as [Error][]) expectNoJunk(error.message);
  });
});
