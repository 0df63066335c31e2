// The one sender of signed deliveries (src/webhooks/send-delivery.ts), used by the sandbox's delivery queue
// and the CLI's forwarder, against a real receiver on 127.0.0.1.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { sendSignedDelivery } from '../../src/webhooks/send-delivery.js';

const SECRET = 'whsec_send_test';
const BODY = JSON.stringify({
  id: 'evt_send_1',
  object: 'event',
  type: 'sale.completed',
  api_version: '2026-09-24',
  created_at: '2026-01-01T00:00:00Z',
  livemode: false,
  data: { object: { id: 1 } },
});

let server: Server;
let base: string;
const seen: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/ok') res.writeHead(200).end('{"received":true}');
      else if (req.url === '/moved') res.writeHead(302, { Location: '/ok' }).end();
      else if (req.url === '/fail') res.writeHead(500).end(`boom\n  secret ${SECRET} leaked`);
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 2_000);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const input = (path: string) => ({
  url: `${base}${path}`,
  body: BODY,
  eventType: 'sale.completed',
  eventId: 'evt_send_1',
  deliveryId: 'whd_send_1',
  attempt: 2,
  secret: SECRET,
  userAgent: 'send-test',
  timeoutMs: 1_000,
});

describe('sendSignedDelivery', () => {
  it('POSTs the exact body with the service headers, signed so the receiver verifies it', async () => {
    const outcome = await sendSignedDelivery({ ...input('/ok'), readAnswer: true });
    expect(outcome).toEqual({ status: 200, error: null, answer: '{"received":true}' });
    const got = seen.at(-1)!;
    expect(got.body).toBe(BODY);
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'send-test',
      'service-event': 'sale.completed',
      'service-event-id': 'evt_send_1',
      'service-delivery-id': 'whd_send_1',
      'service-attempt': '2',
    });
    const event = await verifyWebhook({ body: got.body, headers: got.headers, secret: SECRET });
    expect(event.id).toBe('evt_send_1');
  });

  it('sends an endpoint header beside them, which cannot replace a Service-* header', async () => {
    await sendSignedDelivery({
      ...input('/ok'),
      extraHeaders: { 'X-Partner-Auth': 'token-1', 'Service-Signature': 't=1,v1=forged' },
    });
    const got = seen.at(-1)!;
    expect(got.headers['x-partner-auth']).toBe('token-1');
    expect(got.headers['service-signature']).not.toBe('t=1,v1=forged');
    await expect(
      verifyWebhook({ body: got.body, headers: got.headers, secret: SECRET }),
    ).resolves.toBeTruthy();
  });

  it('names each failure: a redirect not followed, a 5xx with its answer (secrets redacted), a timeout, no receiver', async () => {
    const before = seen.length;
    expect(await sendSignedDelivery(input('/moved'))).toEqual({
      status: 302,
      error: 'redirect_302',
      answer: null,
    });
    expect(seen.slice(before).map((request) => request.path)).toEqual(['/moved']);
    expect(await sendSignedDelivery({ ...input('/fail'), readAnswer: true })).toEqual({
      status: 500,
      error: 'http_500',
      answer: 'boom secret whsec_[redacted] leaked',
    });
    expect(await sendSignedDelivery({ ...input('/slow'), timeoutMs: 100 })).toEqual({
      status: null,
      error: 'timeout',
      answer: null,
    });
    const closed = await sendSignedDelivery({ ...input('/ok'), url: 'http://127.0.0.1:9/hook' });
    expect(closed.status).toBeNull();
    expect(closed.error).toMatch(/^connection_error: /);
  });
});
