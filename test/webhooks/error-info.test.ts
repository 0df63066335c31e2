// Issue 32 item 9: a misconfigured sender pastes the endpoint secret into a delivery header. The delivery is
// refused (or handled) as it should be, but what `onError` is told beside the error (the delivery fields,
// the request's headers and URL) reached the receiver's logger with the secret in it. Every secret value,
// and any whsec_ string, is now cut out of it, over the Node adapter, the web handler and handle().
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  type WebhookErrorInfo,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { deliveryHeaders, eventBody, nodeHmac, unixNow } from './helpers.js';
import { serveNode, serveWeb, type TestServer } from './server.js';

/** Not a whsec_ string: only the handler's knowing its value can cut it out. */
const PLAIN = 'endpoint-secret-7a3f9c2e5b';
const WHSEC = 'whsec_error_info_0123456789abcdef';

/** The headers a misconfigured sender changes, given the signed ones, the secret and the body. */
type Shape = (headers: Record<string, string>, secret: string, body: string) => Record<string, string>;

/** Where a misconfigured sender puts the secret; each keeps the body authentic. */
const SHAPES: ReadonlyArray<readonly [string, Shape]> = [
  ['pasted as the signature', (_, secret) => ({ 'service-signature': secret })],
  ['as t', (_, secret, body) => ({ 'service-signature': `t=${secret},v1=${nodeHmac(secret, 1, body)}` })],
  [
    'beside a valid signature',
    (h, secret) => ({ 'service-signature': `${h['service-signature']},v0=${secret}` }),
  ],
  ['as the event id', (_, secret) => ({ 'service-event-id': secret })],
  ['as the event type', (_, secret) => ({ 'service-event': secret })],
  ['as the delivery id', (_, secret) => ({ 'service-delivery-id': `dlv_${secret}` })],
];

/** Everything a logger could print of one report: util.inspect at full depth, JSON, and the fields read. */
function printed(error: unknown, info: WebhookErrorInfo): string {
  const headers = info.request?.headers;
  const headerText =
    headers instanceof Headers ? JSON.stringify([...headers]) : JSON.stringify(headers ?? null);
  return [
    inspect(info, { depth: null }),
    JSON.stringify(info),
    JSON.stringify(info.delivery),
    headerText,
    info.request?.url.href ?? '',
    error instanceof Error ? `${error.message}\n${error.stack}` : String(error),
  ].join('\n');
}

interface Reported {
  readonly error: unknown;
  readonly info: WebhookErrorInfo;
}

function handlerFor(secret: WebhookHandlerOptions['secret'], reports: Reported[]) {
  return createWebhookHandler({
    secret,
    dedupe: false,
    // The shapes that verify still reach onError: the handler fails.
    onEvent: () => {
      throw new Error('the handler failed');
    },
    onError: (error, info) => reports.push({ error, info }),
  });
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Posts the delivery with the secret placed by `shape`, through `via`, and returns the one report. */
async function deliver(
  via: 'node' | 'web' | 'handle',
  secret: string,
  shape: Shape,
  handlerSecret: WebhookHandlerOptions['secret'] = secret,
) {
  const reports: Reported[] = [];
  const handler = handlerFor(handlerSecret, reports);
  const body = eventBody();
  const signed = deliveryHeaders(body, secret, unixNow());
  const headers = { ...signed, ...shape(signed, secret, body) };
  let status: number;
  if (via === 'handle') {
    status = (await handler.handle({ body, headers, url: `/webhooks?shop=${secret}` })).status;
  } else {
    const server = await (via === 'node' ? serveNode(handler) : serveWeb(handler));
    servers.push(server);
    status = (await fetch(`${server.url}?shop=${secret}`, { method: 'POST', body, headers })).status;
  }
  expect(reports).toHaveLength(1);
  return { status, ...reports[0]! };
}

describe('onError is never told the secret a sender put in a header (issue 32 item 9)', () => {
  describe.each(['node', 'web', 'handle'] as const)('over %s', (via) => {
    it.each(SHAPES)('the secret %s', async (_, shape) => {
      for (const secret of [PLAIN, WHSEC]) {
        const { status, error, info } = await deliver(via, secret, shape);
        // Still answered as before: a refusal, or a handled delivery whose handler failed.
        expect([400, 500]).toContain(status);
        const text = printed(error, info);
        expect(text).not.toContain(secret);
        expect(text).not.toContain('whsec_');
        // The report still says which headers were there, with the secret cut out.
        expect(text).toContain('[redacted]');
        // The framework's own request is still there to read (handle() was given none).
        expect(info.request?.native === undefined).toBe(via === 'handle');
      }
    });
  });

  it('cuts out a secret a resolver gave, and the other secret of a rotation', async () => {
    const old = 'old-endpoint-secret-41d8';
    const { error, info } = await deliver('handle', PLAIN, SHAPES[3]![1], () => [old, PLAIN]);
    expect(printed(error, info)).not.toContain(PLAIN);
    const second = await deliver('handle', PLAIN, () => ({ 'service-event': old }), [old, PLAIN]);
    expect(printed(second.error, second.info)).not.toContain(old);
    expect(second.info.delivery.eventType).toBe('[redacted]');
  });

  it('leaves a delivery without a secret in it as it came', async () => {
    const { info } = await deliver('handle', PLAIN, () => ({}));
    expect(info.delivery.eventType).toBe('range.reservation.booked');
    expect(info.delivery.eventId).toMatch(/^evt_test_/);
    expect(info.request?.url.pathname).toBe('/webhooks');
  });
});
