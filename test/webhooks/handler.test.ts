import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, expectTypeOf, inject, it, vi } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  type EventContext,
  MemoryDedupeStore,
  type ShopEvent,
  type ShopEventOf,
  type UnknownShopEvent,
  WebhookConfigurationError,
  type WebhookErrorInfo,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { RedisDedupeStore } from '../../src/webhooks/redis.js';
import { deliveryHeaders, eventBody, unixNow } from './helpers.js';
import { postChunked, readAll, serveNode, serveWeb, type TestServer } from './server.js';

const SECRET = 'whsec_handler_secret';
const redisUrl = inject('redisUrl');
/** Keys of this run: a rerun against the same redis-server (watch mode) meets none of them. */
const RUN = Math.random().toString(36).slice(2, 10);

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function deliver(url: string, body: string, attempt = 1, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    body,
    headers: { ...deliveryHeaders(body, SECRET, unixNow(), attempt), ...headers },
  });
}

const adapters = {
  node: serveNode,
  web: (handler: Parameters<typeof serveWeb>[0]) => serveWeb(handler),
} as const;

describe.each(['node', 'web'] as const)('createWebhookHandler over HTTP (%s adapter)', (adapter) => {
  async function serve(options: Partial<Parameters<typeof createWebhookHandler>[0]> = {}) {
    const handler = createWebhookHandler({ secret: SECRET, ...options });
    const server = await adapters[adapter](handler);
    servers.push(server);
    return { handler, url: server.url };
  }

  it('processes a signed delivery and hands onEvent the event and its delivery headers', async () => {
    const onEvent = vi.fn();
    const { url } = await serve({ onEvent });
    const body = eventBody();
    const response = await deliver(url, body, 1);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(onEvent).toHaveBeenCalledTimes(1);
    const [event, context] = onEvent.mock.calls[0] as [ShopEvent, EventContext];
    expect(event).toEqual(JSON.parse(body));
    expect(context).toEqual({
      source: 'webhook',
      delivery: { eventType: event.type, eventId: event.id, deliveryId: `dlv_${event.id}_1`, attempt: 1 },
      request: expect.objectContaining({ native: expect.anything() }),
    });
    expect(context.request?.url.href).toBe(url);
  });

  it('processes a duplicate delivery once and answers it 200', async () => {
    const onEvent = vi.fn();
    const { url } = await serve({ onEvent });
    const body = eventBody();
    expect((await deliver(url, body, 1)).status).toBe(200);
    const again = await deliver(url, body, 2);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('answers 500 when onEvent throws, releases the claim, and processes the retry', async () => {
    const onError = vi.fn();
    const onEvent = vi.fn().mockRejectedValueOnce(new Error('database down')).mockResolvedValue(undefined);
    const { url } = await serve({ onEvent, onError });
    const body = eventBody();
    const failed = await deliver(url, body, 1);
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain('database down');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'database down' }),
      expect.objectContaining({ outcome: 'failed' }),
    );
    expect((await deliver(url, body, 2)).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(2);
    expect((await deliver(url, body, 3)).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it('processes concurrent deliveries of one event id once', async () => {
    let running = 0;
    let calls = 0;
    const onEvent = async () => {
      calls++;
      running++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      running--;
    };
    const { url } = await serve({ onEvent });
    const body = eventBody();
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => deliver(url, body, i + 1)));
    // One is processed; the others meet its lease (409, retried later) or, once it is done, the done mark.
    const answers = await Promise.all(
      responses.map(async (response) => `${response.status} ${await response.text()}`),
    );
    expect(answers.filter((answer) => answer === '200 {"received":true}')).toHaveLength(1);
    for (const answer of answers) {
      expect([
        '200 {"received":true}',
        '200 {"received":true,"duplicate":true}',
        '409 {"error":{"type":"in_progress"}}',
      ]).toContain(answer);
    }
    expect(calls).toBe(1);
    expect(running).toBe(0);
    expect((await deliver(url, body, 13)).status).toBe(200);
    expect(calls).toBe(1);
  });

  it('answers 400 with the reason for a bad signature, and never calls onEvent', async () => {
    const onEvent = vi.fn();
    const { url } = await serve({ onEvent });
    const body = eventBody();
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { ...deliveryHeaders(body, 'whsec_someone_else', unixNow()) },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: 'webhook_verification_failed', reason: 'signature_mismatch' },
    });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('tells the sender only the type and reason of a refusal; onError gets the message with its hints', async () => {
    const onError = vi.fn();
    // A rotation, and a secret pasted with a trailing space: the mismatch message hints at both.
    const { url } = await serve({ secret: [SECRET, 'whsec_new_secret '], onError });
    const body = eventBody();
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: deliveryHeaders(body, 'whsec_someone_else', unixNow()),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { type: 'webhook_verification_failed', reason: 'signature_mismatch' },
    });
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, info] = onError.mock.calls[0] as [WebhookVerificationError, WebhookErrorInfo];
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.message).toMatch(/any of the 2 secrets.*surrounding whitespace/);
    expect(info).toMatchObject({ outcome: 'rejected', delivery: { eventId: JSON.parse(body).id } });
  });

  it('refuses a delivery whose Service-Event-Id header disagrees with the signed body', async () => {
    const onEvent = vi.fn();
    const { url } = await serve({ onEvent });
    const response = await deliver(url, eventBody(), 1, { 'service-event-id': 'evt_forged' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { reason: 'invalid_payload' } });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers 503 and processes nothing when the dedupe store fails', async () => {
    const onEvent = vi.fn();
    const broken: DedupeStore = {
      claim: () => Promise.reject(new Error('redis unreachable')),
      release: () => undefined,
    };
    const { url } = await serve({ onEvent, dedupe: broken });
    expect((await deliver(url, eventBody())).status).toBe(503);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers 405 to other methods and 413 to a body over the limit', async () => {
    const { url } = await serve({ maxBodyBytes: 100 });
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await deliver(url, eventBody())).status).toBe(413);
  });

  it('answers 413 to a chunked body (no Content-Length) over the limit', async () => {
    const { url } = await serve({ maxBodyBytes: 1024 });
    const answer = await postChunked(url, 8 << 20, { 'content-type': 'application/json' });
    expect(answer).toEqual({
      status: 413,
      body: JSON.stringify({ error: { type: 'body_too_large', max_bytes: 1024 } }),
    });
  });

  it('routes events to typed handlers and unknown types to the fallback', async () => {
    const booked: number[] = [];
    const unknown: string[] = [];
    const { handler, url } = await serve();
    handler
      .on('range.reservation.booked', (event) => {
        expectTypeOf(event).toEqualTypeOf<ShopEventOf<'range.reservation.booked'>>();
        booked.push(event.data.object.id);
      })
      .onUnknown((event) => {
        expectTypeOf(event).toEqualTypeOf<UnknownShopEvent>();
        unknown.push(event.type);
      });
    await deliver(
      url,
      eventBody({ data: { object: { object: 'range_reservation', id: 77, status: 'booked' } } }),
    );
    await deliver(
      url,
      eventBody({ type: 'range.lane.repainted', data: { object: { object: 'range_lane' } } }),
    );
    await deliver(url, eventBody({ type: 'sale.voided', data: { object: { object: 'order' } } }));
    expect(booked).toEqual([77]);
    expect(unknown).toEqual(['range.lane.repainted']);
  });
});

describe('the Node adapter behind body parsers', () => {
  it('accepts a raw Buffer left by express.raw()', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, onEvent });
    const server = await serveNode(handler, async (request) => {
      request.body = await readAll(request);
    });
    servers.push(server);
    expect((await deliver(server.url, eventBody())).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('answers 400 invalid_body after express.json(), and tells onError to pass the raw body', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, onError });
    const server = await serveNode(handler, async (request) => {
      request.body = JSON.parse((await readAll(request)).toString('utf8'));
    });
    servers.push(server);
    const response = await deliver(server.url, eventBody());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { type: 'webhook_verification_failed', reason: 'invalid_body' },
    });
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(/parsed to an object: pass the raw body/) }),
      expect.objectContaining({ outcome: 'rejected' }),
    );
  });

  it.each([
    ['a Buffer', (bytes: Buffer) => bytes],
    ['a string', (bytes: Buffer) => bytes.toString('utf8')],
    // 400 characters under a 1024-byte cap, but 1200 bytes of UTF-8.
    ['a string of multi-byte characters', () => '€'.repeat(400)],
  ])('answers 413 when a body parser left %s over maxBodyBytes', async (_kind, leave) => {
    const handler = createWebhookHandler({ secret: SECRET, maxBodyBytes: 1024 });
    const server = await serveNode(handler, async (request) => {
      request.body = leave(await readAll(request));
    });
    servers.push(server);
    // Chunked: no Content-Length to refuse before the parser read it all.
    expect(await postChunked(server.url, 64 * 1024)).toMatchObject({ status: 413 });
  });

  it('says a body parser consumed the stream when it left no body, and how to fix it', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, onError });
    const server = await serveNode(handler, async (request) => {
      await readAll(request);
    });
    servers.push(server);
    const response = await deliver(server.url, eventBody());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { type: 'webhook_verification_failed', reason: 'invalid_body' },
    });
    const [error] = onError.mock.calls[0] as [WebhookVerificationError];
    expect(error.reason).toBe('invalid_body');
    expect(error.message).toMatch(/consumed the request stream.*express\.raw/);
  });

  it("reads the stream when Express 4's body-parser skipped the type and left {}", async () => {
    const handler = createWebhookHandler({ secret: SECRET });
    const server = await serveNode(handler, async (request) => {
      request.body = {};
    });
    servers.push(server);
    expect((await deliver(server.url, eventBody())).status).toBe(200);
  });
});

describe('the web handler', () => {
  it('answers 400 invalid_body, not a TypeError, when the body was already read, and tells onError', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: SECRET, onError });
    const body = eventBody();
    const request = new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      body,
      headers: deliveryHeaders(body, SECRET, unixNow()),
    });
    await request.json();
    const response = await handler(request);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { type: 'webhook_verification_failed', reason: 'invalid_body' },
    });
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'invalid_body', message: expect.stringMatching(/already read/) }),
      expect.objectContaining({ outcome: 'rejected', delivery: expect.objectContaining({ attempt: 1 }) }),
    );
  });
});

/**
 * A delivery whose handler is still busy when its claim expires (a short dedupeTtlSeconds): a retry claims
 * the id again and is processed; then the first handler fails and releases. Its release must not remove
 * the retry's claim, or a third delivery is processed once more.
 */
async function lateReleaseAfterExpiry(dedupe: DedupeStore, expire: (eventId: string) => Promise<unknown>) {
  let firstStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    firstStarted = resolve;
  });
  let failFirst!: () => void;
  const firstFails = new Promise<void>((resolve) => {
    failFirst = resolve;
  });
  const onEvent = vi.fn(async (_event: ShopEvent, context: EventContext) => {
    if (context.delivery?.attempt !== 1) return;
    firstStarted();
    await firstFails;
    throw new Error('failed after its claim expired');
  });
  const handler = createWebhookHandler({ secret: SECRET, dedupe, dedupeTtlSeconds: 60, onEvent });
  const body = eventBody();
  const id = (JSON.parse(body) as { id: string }).id;
  const attempt = (n: number) =>
    handler.handle({ body, headers: deliveryHeaders(body, SECRET, unixNow(), n) });

  const first = attempt(1);
  await started;
  await expire(id);
  expect(await attempt(2)).toMatchObject({ status: 200, outcome: 'processed' });
  failFirst();
  expect(await first).toMatchObject({ status: 500, outcome: 'failed' });
  expect(await attempt(3)).toMatchObject({ status: 200, outcome: 'duplicate' });
  expect(onEvent).toHaveBeenCalledTimes(2);
}

describe('a failed handler releasing a claim that expired meanwhile', () => {
  it('leaves the claim a later delivery took (MemoryDedupeStore)', async () => {
    let now = Date.now();
    const store = new MemoryDedupeStore({ now: () => now });
    await lateReleaseAfterExpiry(store, async () => {
      now += 61_000;
    });
  });

  it('passes the token a store gave to its release, and nothing when the store gave true', async () => {
    const released: unknown[][] = [];
    const store = (claim: string | boolean): DedupeStore => ({
      claim: () => claim,
      release: (...args: unknown[]) => {
        released.push(args);
      },
    });
    const failing = () => {
      throw new Error('handler failed');
    };
    for (const claim of ['tok_1', true]) {
      const handler = createWebhookHandler({ secret: SECRET, dedupe: store(claim), onEvent: failing });
      const body = eventBody();
      expect(await handler.handle({ body, headers: deliveryHeaders(body, SECRET, unixNow()) })).toMatchObject(
        {
          status: 500,
        },
      );
    }
    const ids = released.map(([id]) => id);
    expect(released).toEqual([[ids[0], 'tok_1'], [ids[1]]]);
  });
});

describe('createWebhookHandler setup', () => {
  it('refuses an empty or blank secret at once', () => {
    expect(() => createWebhookHandler({ secret: '' })).toThrow(WebhookConfigurationError);
    expect(() => createWebhookHandler({ secret: [' '] })).toThrow(WebhookConfigurationError);
    expect(() => createWebhookHandler({ secret: SECRET, dedupeTtlSeconds: 0 })).toThrow(
      WebhookConfigurationError,
    );
  });

  it('handles a raw delivery from any framework through handle()', async () => {
    const handler = createWebhookHandler({ secret: SECRET, dedupe: new MemoryDedupeStore() });
    const body = eventBody();
    const result = await handler.handle({ body, headers: deliveryHeaders(body, SECRET, unixNow()) });
    expect(result).toMatchObject({ status: 200, outcome: 'processed', event: JSON.parse(body) });
    const duplicate = await handler.handle({ body, headers: deliveryHeaders(body, SECRET, unixNow(), 2) });
    expect(duplicate).toMatchObject({ status: 200, outcome: 'duplicate' });
  });
});

describe.skipIf(!redisUrl)(
  redisUrl
    ? 'two receivers sharing a RedisDedupeStore over a real redis-server'
    : 'two receivers sharing a RedisDedupeStore: SKIPPED, no redis-server on this machine',
  () => {
    const clients: Redis[] = [];
    afterAll(async () => {
      for (const client of clients) await client.quit();
    });

    async function twoMachines(onEvent: (event: ShopEvent) => unknown) {
      const urls: string[] = [];
      for (const adapter of ['node', 'web'] as const) {
        const client = new Redis(redisUrl!);
        clients.push(client);
        const handler = createWebhookHandler({
          secret: SECRET,
          onEvent,
          dedupe: new RedisDedupeStore(client, { keyPrefix: `test:${RUN}:machines:` }),
        });
        const server = await adapters[adapter](handler);
        servers.push(server);
        urls.push(server.url);
      }
      return urls as [string, string];
    }

    it('processes duplicates once across machines', async () => {
      const onEvent = vi.fn();
      const [a, b] = await twoMachines(onEvent);
      const body = eventBody();
      expect((await deliver(a, body, 1)).status).toBe(200);
      expect((await deliver(b, body, 2)).status).toBe(200);
      expect(onEvent).toHaveBeenCalledTimes(1);
    });

    it('answers 500 when onEvent throws on one machine, and the retry on the other is processed', async () => {
      const onEvent = vi.fn().mockRejectedValueOnce(new Error('boom')).mockResolvedValue(undefined);
      const [a, b] = await twoMachines(onEvent);
      const body = eventBody();
      expect((await deliver(a, body, 1)).status).toBe(500);
      expect((await deliver(b, body, 2)).status).toBe(200);
      expect(onEvent).toHaveBeenCalledTimes(2);
    });

    it('leaves the claim a later delivery took when a failed handler releases after its claim expired', async () => {
      const client = new Redis(redisUrl!);
      clients.push(client);
      const keyPrefix = `test:${RUN}:late-release:`;
      await lateReleaseAfterExpiry(new RedisDedupeStore(client, { keyPrefix }), (id) =>
        client.del(keyPrefix + id),
      );
    });

    it('processes concurrent deliveries of one event id once across machines', async () => {
      let calls = 0;
      const [a, b] = await twoMachines(async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      const body = eventBody();
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => deliver(i % 2 ? a : b, body, i + 1)),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
      expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
      expect(calls).toBe(1);
      // Once done, every machine answers the event as a duplicate.
      expect(await (await deliver(a, body, 13)).json()).toEqual({ received: true, duplicate: true });
      expect(await (await deliver(b, body, 14)).json()).toEqual({ received: true, duplicate: true });
      expect(calls).toBe(1);
    });
  },
);
