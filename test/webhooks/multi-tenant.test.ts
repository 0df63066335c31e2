// One receiver for several shops: the secret is resolved per delivery from the path it was posted to, and
// dedupe claims are namespaced per tenant. Over HTTP through both adapters, as a partner mounts them.
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, inject, it, vi } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  type EventContext,
  MemoryDedupeStore,
  type ShopEvent,
  WebhookConfigurationError,
  type WebhookErrorInfo,
  type WebhookHandlerOptions,
  type WebhookRequest,
  WebhookSecretError,
} from '../../src/webhooks/index.js';
import { RedisDedupeStore } from '../../src/webhooks/redis.js';
import { deliveryHeaders, eventBody, unixNow } from './helpers.js';
import { serveNode, serveWeb, type TestServer } from './server.js';

const SECRETS: Record<string, string | string[]> = {
  shop_a: 'whsec_tenant_a_secret_0001',
  shop_b: 'whsec_tenant_b_secret_0002',
  // Mid-rotation: old and new.
  shop_c: ['whsec_tenant_c_old', 'whsec_tenant_c_new'],
};

/** The tenant is the last path segment: /webhooks/shop_a. */
function tenantOf(request: WebhookRequest): string {
  return request.url.pathname.split('/').pop() ?? '';
}

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function post(url: string, body: string, secret: string | string[], attempt = 1) {
  return fetch(url, { method: 'POST', body, headers: deliveryHeaders(body, secret, unixNow(), attempt) });
}

describe.each([
  ['node', serveNode],
  ['web', serveWeb],
] as const)('a multi-tenant receiver over HTTP (%s adapter)', (_adapter, serveWith) => {
  async function serve(options: Partial<WebhookHandlerOptions> = {}) {
    const handler = createWebhookHandler({ secret: (request) => SECRETS[tenantOf(request)], ...options });
    const server = await serveWith(handler);
    servers.push(server);
    return (tenant: string) => `${server.url}/${tenant}`;
  }

  it("verifies each tenant's deliveries with its own secret, and refuses one signed for another tenant", async () => {
    const seen: string[] = [];
    const onEvent = (event: ShopEvent, context: EventContext) => {
      seen.push(`${tenantOf(context.request!)}:${event.id}`);
    };
    const onError = vi.fn();
    const at = await serve({ onEvent, onError });
    const forA = eventBody();
    const forB = eventBody();
    expect((await post(at('shop_a'), forA, SECRETS.shop_a!)).status).toBe(200);
    expect((await post(at('shop_b'), forB, SECRETS.shop_b!)).status).toBe(200);

    // Signed with A's secret, posted to B's path.
    const crossed = eventBody();
    const refused = await post(at('shop_b'), crossed, SECRETS.shop_a!);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: { type: 'webhook_verification_failed', reason: 'signature_mismatch' },
    });
    const [error, info] = onError.mock.calls[0] as [Error, WebhookErrorInfo];
    expect(error).toMatchObject({ reason: 'signature_mismatch' });
    expect(info.request?.url.pathname).toBe('/webhooks/shop_b');

    expect(seen).toEqual([`shop_a:${JSON.parse(forA).id}`, `shop_b:${JSON.parse(forB).id}`]);
  });

  it('accepts either secret of a tenant in rotation, from an async resolver', async () => {
    const onEvent = vi.fn();
    const at = await serve({
      onEvent,
      secret: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return SECRETS[tenantOf(request)];
      },
    });
    expect((await post(at('shop_c'), eventBody(), 'whsec_tenant_c_old')).status).toBe(200);
    expect((await post(at('shop_c'), eventBody(), 'whsec_tenant_c_new')).status).toBe(200);
    expect((await post(at('shop_c'), eventBody(), SECRETS.shop_a!)).status).toBe(400);
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['undefined (an unknown shop)', () => undefined],
    ['null', () => null],
    ['a blank string (an unset environment variable)', () => ' '],
    ['an empty list', async () => []],
  ])('answers 404 unknown_endpoint when the resolver gives %s, and tells onError', async (_name, resolve) => {
    const onError = vi.fn();
    const onEvent = vi.fn();
    const at = await serve({ secret: resolve, onError, onEvent });
    const response = await post(at('shop_z'), eventBody(), SECRETS.shop_a!);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { type: 'unknown_endpoint' } });
    expect(onEvent).not.toHaveBeenCalled();
    const [error, info] = onError.mock.calls[0] as [WebhookSecretError, WebhookErrorInfo];
    expect(error).toBeInstanceOf(WebhookSecretError);
    expect(error.reason).toBe('secret_not_found');
    expect(info).toMatchObject({ outcome: 'rejected' });
    expect(info.request?.url.pathname).toBe('/webhooks/shop_z');
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error(`vault refused token ${SECRETS.shop_a}`);
      },
    ],
    ['rejects', () => Promise.reject(new Error(`vault refused token ${SECRETS.shop_a}`))],
  ])(
    'answers 503 secret_unavailable when the resolver %s; the cause goes to onError only',
    async (_name, resolve) => {
      const onError = vi.fn();
      const at = await serve({ secret: resolve, onError });
      const response = await post(at('shop_a'), eventBody(), SECRETS.shop_a!);
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: { type: 'secret_unavailable' } });
      expect(text).not.toContain('whsec_');
      const [error, info] = onError.mock.calls[0] as [WebhookSecretError, WebhookErrorInfo];
      expect(error).toMatchObject({ name: 'WebhookSecretError', reason: 'resolver_failed' });
      expect(error.message).not.toContain('whsec_');
      expect((error.cause as Error).message).toMatch(/vault refused/);
      expect(info.outcome).toBe('failed');
    },
  );

  it('answers 500 when the resolver gives something that is not a secret (a setup error)', async () => {
    const onError = vi.fn();
    const at = await serve({ secret: (() => 42) as never, onError });
    expect((await post(at('shop_a'), eventBody(), SECRETS.shop_a!)).status).toBe(500);
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(WebhookConfigurationError);
  });

  describe('dedupeKey', () => {
    const perTenant = (event: ShopEvent, request: WebhookRequest) => `${tenantOf(request)}:${event.id}`;

    it('processes the same event id once per tenant when claims are namespaced', async () => {
      const dedupe = new MemoryDedupeStore();
      const seen: string[] = [];
      const at = await serve({
        dedupe,
        dedupeKey: perTenant,
        onEvent: (event, context) => {
          seen.push(`${tenantOf(context.request!)}:${event.id}`);
        },
      });
      const body = eventBody();
      const id = JSON.parse(body).id as string;
      expect((await post(at('shop_a'), body, SECRETS.shop_a!, 1)).status).toBe(200);
      expect((await post(at('shop_b'), body, SECRETS.shop_b!, 1)).status).toBe(200);
      const again = await post(at('shop_a'), body, SECRETS.shop_a!, 2);
      expect(await again.json()).toEqual({ received: true, duplicate: true });
      expect(seen).toEqual([`shop_a:${id}`, `shop_b:${id}`]);
      expect(dedupe.size).toBe(2);
    });

    it('claims by the event id alone by default: a second tenant with the same id is a duplicate', async () => {
      const onEvent = vi.fn();
      const at = await serve({ onEvent });
      const body = eventBody();
      await post(at('shop_a'), body, SECRETS.shop_a!);
      const second = await post(at('shop_b'), body, SECRETS.shop_b!);
      expect(await second.json()).toEqual({ received: true, duplicate: true });
      expect(onEvent).toHaveBeenCalledTimes(1);
    });

    it("releases the namespaced claim, with its token, when a tenant's handler fails", async () => {
      const calls: unknown[][] = [];
      const inner = new MemoryDedupeStore();
      const dedupe: DedupeStore = {
        claim: (key, ttl) => {
          calls.push(['claim', key]);
          return inner.claim(key, ttl);
        },
        release: (key, token) => {
          calls.push(['release', key, token]);
          return inner.release(key, token);
        },
      };
      const onEvent = vi.fn().mockRejectedValueOnce(new Error('db down')).mockResolvedValue(undefined);
      const at = await serve({ dedupe, dedupeKey: perTenant, onEvent });
      const body = eventBody();
      const key = `shop_a:${JSON.parse(body).id}`;
      expect((await post(at('shop_a'), body, SECRETS.shop_a!, 1)).status).toBe(500);
      expect((await post(at('shop_a'), body, SECRETS.shop_a!, 2)).status).toBe(200);
      expect(onEvent).toHaveBeenCalledTimes(2);
      expect(calls).toEqual([
        ['claim', key],
        ['release', key, expect.stringMatching(/^claim_/)],
        ['claim', key],
      ]);
    });

    it('answers 500 and processes nothing when dedupeKey gives no string', async () => {
      const onEvent = vi.fn();
      const onError = vi.fn();
      const at = await serve({ dedupeKey: () => '', onEvent, onError });
      expect((await post(at('shop_a'), eventBody(), SECRETS.shop_a!)).status).toBe(500);
      expect(onEvent).not.toHaveBeenCalled();
      expect(onError.mock.calls[0]![0]).toMatchObject({
        name: 'WebhookConfigurationError',
        message: expect.stringMatching(/dedupeKey must return a non-empty string/),
      });
    });
  });
});

describe('a multi-tenant receiver through handle()', () => {
  it('hands the resolver the url and request it was given', async () => {
    const native = { framework: 'fastify' };
    const resolver = vi.fn((request: WebhookRequest) => SECRETS[tenantOf(request)]);
    const handler = createWebhookHandler({ secret: resolver });
    const body = eventBody();
    const headers = deliveryHeaders(body, SECRETS.shop_b!, unixNow());
    const result = await handler.handle({ body, headers, url: '/hooks/shop_b?x=1', request: native });
    expect(result).toMatchObject({ status: 200, outcome: 'processed' });
    const [request] = resolver.mock.calls[0]!;
    expect(request.url.pathname).toBe('/hooks/shop_b');
    expect(request.url.searchParams.get('x')).toBe('1');
    expect(request.native).toBe(native);
    expect(request.headers).toBe(headers);
    // Without a url, the resolver sees "/": no tenant, 404.
    expect(await handler.handle({ body, headers })).toMatchObject({ status: 404, outcome: 'rejected' });
  });
});

describe('setup of a resolver handler', () => {
  it('still checks toleranceSeconds and dedupeKey when it is created', () => {
    expect(() => createWebhookHandler({ secret: () => 'whsec_x', toleranceSeconds: -1 })).toThrow(
      WebhookConfigurationError,
    );
    expect(() => createWebhookHandler({ secret: 'whsec_x', dedupeKey: 'id' as never })).toThrow(
      /dedupeKey must be a function/,
    );
  });
});

const redisUrl = inject('redisUrl');

describe.skipIf(!redisUrl)(
  redisUrl
    ? 'tenant claims in a RedisDedupeStore on a real redis-server'
    : 'tenant claims in a RedisDedupeStore: SKIPPED, no redis-server on this machine',
  () => {
    const client = redisUrl ? new Redis(redisUrl) : undefined;
    afterAll(async () => {
      await client?.quit();
    });

    it("meets a per-shop store's claims (the feed catch-up's) with dedupeKey and a shared prefix", async () => {
      const prefix = `test:${Math.random().toString(36).slice(2, 10)}:evt:`;
      const onEvent = vi.fn();
      const handler = createWebhookHandler({
        secret: (request) => SECRETS[tenantOf(request)],
        dedupe: new RedisDedupeStore(client!, { keyPrefix: prefix }),
        dedupeKey: (event, request) => `${tenantOf(request)}:${event.id}`,
        onEvent,
      });
      const body = eventBody();
      const id = JSON.parse(body).id as string;
      const headers = deliveryHeaders(body, SECRETS.shop_a!, unixNow());
      expect(await handler.handle({ body, headers, url: '/webhooks/shop_a' })).toMatchObject({ status: 200 });
      // What shop_a's catch-up would claim, through a store prefixed for shop_a: held by the webhook.
      expect(await new RedisDedupeStore(client!, { keyPrefix: `${prefix}shop_a:` }).claim(id, 60)).toBe(
        false,
      );
      expect(await client!.exists(`${prefix}shop_a:${id}`)).toBe(1);
      // shop_b's catch-up is not blocked by shop_a's event of the same id.
      expect(await new RedisDedupeStore(client!, { keyPrefix: `${prefix}shop_b:` }).claim(id, 60)).toEqual(
        expect.any(String),
      );
      expect(onEvent).toHaveBeenCalledTimes(1);
    });
  },
);
