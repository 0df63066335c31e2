// Leases, not claims: a handler's claim is "in progress" for a short lease it renews while it runs, "done" for
// the long TTL only once it succeeded; a failed release is harmless (the lease runs out); every store call is
// bounded (503 past storeTimeoutMs); a body has a read deadline (408); and the handler can write into an inbox.
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { Inbox } from '../../src/sync/inbox/inbox.js';
import { MemoryInboxStore } from '../../src/sync/inbox/memory.js';
import {
  createWebhookHandler,
  type DedupeStore,
  MemoryDedupeStore,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { RedisDedupeStore } from '../../src/webhooks/redis.js';
import { deliveryHeaders, eventBody, unixNow } from './helpers.js';
import { serveNode, serveWeb, type TestServer } from './server.js';

const secret = 'whsec_leases_test';
const redisUrl = inject('redisUrl');

function deliver(handler: ReturnType<typeof createWebhookHandler>, body: string, attempt = 1) {
  return handler.handle({ body, headers: deliveryHeaders(body, secret, unixNow(), attempt) });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each([
  {
    name: 'MemoryDedupeStore',
    make: async () => ({ store: new MemoryDedupeStore(), close: async () => undefined }),
  },
  {
    name: 'RedisDedupeStore (node-redis)',
    skip: redisUrl === null,
    make: async () => {
      const client = await createClient({ url: redisUrl! }).connect();
      return {
        store: new RedisDedupeStore(client, { keyPrefix: `lease:${Date.now()}:` }),
        close: () => client.quit(),
      };
    },
  },
  {
    name: 'RedisDedupeStore (ioredis)',
    skip: redisUrl === null,
    make: async () => {
      const client = new Redis(redisUrl!);
      return {
        store: new RedisDedupeStore(client, { keyPrefix: `lease-io:${Date.now()}:` }),
        close: async () => {
          await client.quit();
        },
      };
    },
  },
])('$name: the lease contract', ({ make, skip }) => {
  it.skipIf(skip === true)(
    'claims in progress, renews with its token, completes as done, and a lease runs out',
    async () => {
      const { store, close } = await make();
      try {
        const token = (await store.claim('evt_a', 1)) as string;
        expect(token).toEqual(expect.any(String));
        expect(await store.claim('evt_a', 1)).toBe(false);
        expect(await store.isDone('evt_a')).toBe(false);
        expect(await store.renew('evt_a', 'not-the-token', 1)).toBe(false);
        // A witness: a one-second lease taken after evt_a's first one, so it runs out after that one did,
        // by the store's own clock (Redis's for Redis). Nobody renews it.
        expect(await store.claim('evt_b', 1)).toBeTruthy();
        expect(await store.renew('evt_a', token, 30)).toBe(true);
        expect(await store.claim('evt_b', 1)).toBe(false);
        // The witness's lease runs out and its id is free again, not done...
        await vi.waitUntil(async () => (await store.claim('evt_b', 1)) !== false, {
          timeout: 15_000,
          interval: 50,
        });
        expect(await store.isDone('evt_b')).toBe(false);
        // ...while evt_a, renewed, is still held although its first lease has run out too.
        expect(await store.claim('evt_a', 1)).toBe(false);
        await store.complete('evt_a', token, 60);
        expect(await store.isDone('evt_a')).toBe(true);
        // A release after done (a late failure report) leaves it done.
        await store.release('evt_a', token);
        expect(await store.claim('evt_a', 1)).toBe(false);
        expect(await store.renew('evt_a', token, 1)).toBe(false);
      } finally {
        await close();
      }
    },
  );
});

describe('the webhook handler on a lease store', () => {
  it('processes the event again once the lease of a failed handler whose release failed runs out', async () => {
    let now = 1_000_000;
    const memory = new MemoryDedupeStore({ now: () => now });
    // The store is unreachable for the release: a claim-only store would keep the id for days.
    const store: DedupeStore = {
      claim: (id, lease) => memory.claim(id, lease),
      renew: (id, token, lease) => memory.renew(id, token, lease),
      complete: (id, token, ttl) => memory.complete(id, token, ttl),
      isDone: (id) => memory.isDone(id),
      release: async () => {
        throw new Error('ECONNREFUSED');
      },
    };
    const errors: unknown[] = [];
    let runs = 0;
    const handler = createWebhookHandler({
      secret,
      dedupe: store,
      leaseSeconds: 30,
      onEvent: () => {
        runs++;
        if (runs === 1) throw new Error('database down');
      },
      onError: (error) => errors.push(error),
    });
    const body = eventBody();
    expect((await deliver(handler, body, 1)).status).toBe(500);
    expect(errors.map((error) => (error as Error).message)).toEqual(['database down', 'ECONNREFUSED']);
    // Within the lease, a retry meets it (409: not acknowledged, retried later).
    expect((await deliver(handler, body, 2)).status).toBe(409);
    now += 30_000;
    const retried = await deliver(handler, body, 3);
    expect(retried.status).toBe(200);
    expect(retried.outcome).toBe('processed');
    expect(runs).toBe(2);
    expect((await deliver(handler, body, 4)).outcome).toBe('duplicate');
  });

  it('renews the lease while a handler outlives it, so a concurrent delivery is not processed twice', async () => {
    // On fake timers (the handler's renewals, the store's clock and the handler's own 2.2 s): the lease
    // of 1 s would run out twice over without renewals, whatever the machine's load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      let runs = 0;
      let finished = false;
      const handler = createWebhookHandler({
        secret,
        dedupe: new MemoryDedupeStore({ now: () => Date.now() }),
        leaseSeconds: 1,
        onEvent: async () => {
          runs++;
          await sleep(2200);
          finished = true;
        },
      });
      const body = eventBody();
      const first = deliver(handler, body, 1);
      while (runs === 0) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(1600);
      const during = await deliver(handler, body, 2);
      expect(finished).toBe(false);
      expect(during.status).toBe(409);
      await vi.advanceTimersByTimeAsync(600);
      expect((await first).status).toBe(200);
      expect(runs).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 503 when a store call passes storeTimeoutMs, and gives back a claim that comes late', async () => {
    const memory = new MemoryDedupeStore();
    let stall = true;
    let stalledClaimReturned = false;
    const store: DedupeStore = {
      claim: async (id, lease) => {
        if (stall) {
          await sleep(300);
          stalledClaimReturned = true;
        }
        return memory.claim(id, lease);
      },
      renew: (id, token, lease) => memory.renew(id, token, lease),
      complete: (id, token, ttl) => memory.complete(id, token, ttl),
      isDone: (id) => memory.isDone(id),
      release: (id, token) => memory.release(id, token),
    };
    const onEvent = () => undefined;
    const handler = createWebhookHandler({ secret, dedupe: store, storeTimeoutMs: 100, onEvent });
    const body = eventBody();
    const refused = await deliver(handler, body, 1);
    // Answered when the 100 ms timer fired, before the stalled claim (300 ms) came back: timers fire in
    // order, so this holds however slow the machine is.
    expect(stalledClaimReturned).toBe(false);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toEqual({ error: { type: 'dedupe_unavailable' } });
    // The claim that landed after the 503 was released: the retry is processed, not refused.
    await vi.waitUntil(() => stalledClaimReturned, { timeout: 10_000, interval: 20 });
    await sleep(10);
    stall = false;
    expect((await deliver(handler, body, 2)).outcome).toBe('processed');
  });

  it('keeps the old behaviour for a store without leases (claim and release only)', async () => {
    const memory = new MemoryDedupeStore();
    const claims: number[] = [];
    const store: DedupeStore = {
      claim: (id, ttl) => {
        claims.push(ttl);
        return memory.claim(id, ttl);
      },
      release: (id, token) => memory.release(id, token),
    };
    const handler = createWebhookHandler({ secret, dedupe: store, onEvent: () => undefined });
    const body = eventBody();
    expect((await deliver(handler, body)).outcome).toBe('processed');
    expect((await deliver(handler, body, 2)).outcome).toBe('duplicate');
    expect(claims).toEqual([259200, 259200]);
  });
});

describe('the body read deadline', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it.each([
    ['node', serveNode],
    ['web', serveWeb],
  ] as const)('answers a sender too slow to send its body 408 (%s adapter)', async (_name, serve) => {
    const onEvent = () => undefined;
    const handler = createWebhookHandler({ secret, bodyTimeoutMs: 300, onEvent });
    const server = await serve(handler);
    servers.push(server);
    const { port } = new URL(server.url);
    const body = eventBody();
    const headers = deliveryHeaders(body, secret, unixNow());
    // One byte, then nothing: a slow sender holding the socket.
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    // The answer's end (the Node adapter also drops the connection; behind a web server that is its call).
    const answered = new Promise<void>((resolve) => {
      socket.on('data', (chunk) => {
        answer += chunk.toString();
        if (answer.includes('}')) resolve();
      });
      socket.on('close', () => resolve());
    });
    socket.on('error', () => undefined);
    const started = performance.now();
    socket.write(
      `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n` +
        Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        `\r\n${body.slice(0, 1)}`,
    );
    await answered;
    const elapsed = performance.now() - started;
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(answer).toContain('"body_timeout"');
    // Not before the deadline; and it was the handler's deadline that answered (its body_timeout body, not
    // Node's own request timeout, minutes later): without it this socket would wait until the test's timeout.
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });
});

describe('slow senders on the Node adapter', () => {
  it('answers 50 slow sockets 408 and closes every one of them by the deadline', async () => {
    const handler = createWebhookHandler({ secret, bodyTimeoutMs: 400, onEvent: () => undefined });
    const server = await serveNode(handler);
    const { port } = new URL(server.url);
    const body = eventBody();
    const head =
      `POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n` +
      Object.entries(deliveryHeaders(body, secret, unixNow()))
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      '\r\n';
    const started = performance.now();
    const sockets = Array.from({ length: 50 }, () => {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      socket.on('error', () => undefined);
      // One byte of the body every 150 ms: never done before the deadline.
      socket.write(head);
      const drip = setInterval(() => socket.write(' '), 150);
      return new Promise<{ answer: string; ms: number }>((resolve) =>
        socket.on('close', () => {
          clearInterval(drip);
          resolve({ answer, ms: performance.now() - started });
        }),
      );
    });
    const results = await Promise.all(sockets);
    await server.close();
    expect(results.every((result) => result.answer.startsWith('HTTP/1.1 408'))).toBe(true);
    // Closed by the handler's deadline (its body_timeout answer; Node's own timeouts take minutes, past the
    // test's timeout), and not before it.
    expect(results.every((result) => result.answer.includes('"body_timeout"'))).toBe(true);
    expect(Math.min(...results.map((result) => result.ms))).toBeGreaterThanOrEqual(390);
  });
});

describe('the handler with an inbox', () => {
  it('writes each verified event to the inbox and answers 200, a duplicate once, and 503 when the inbox fails', async () => {
    const inbox = new Inbox(new MemoryInboxStore());
    const handler = createWebhookHandler({ secret, inbox });
    const body = eventBody();
    const first = await deliver(handler, body);
    expect([first.status, first.outcome, JSON.parse(first.body)]).toEqual([
      200,
      'queued',
      { received: true },
    ]);
    const again = await deliver(handler, body, 2);
    expect([again.status, again.outcome]).toEqual([200, 'duplicate']);
    expect(await inbox.get(JSON.parse(body).id)).toMatchObject({ status: 'pending', source: 'webhook' });
    // Not verified: nothing written.
    const forged = await handler.handle({
      body: eventBody(),
      headers: deliveryHeaders(body, 'whsec_other', unixNow()),
    });
    expect(forged.status).toBe(400);
    expect(await inbox.list('pending')).toHaveLength(1);

    const stalled = createWebhookHandler({
      secret,
      storeTimeoutMs: 50,
      inbox: { add: () => new Promise(() => undefined) },
    });
    expect((await deliver(stalled, eventBody())).status).toBe(503);
    const failing = createWebhookHandler({
      secret,
      inbox: {
        add: async () => {
          throw new Error('disk full');
        },
      },
    });
    const refused = await deliver(failing, eventBody());
    expect([refused.status, JSON.parse(refused.body)]).toEqual([
      503,
      { error: { type: 'inbox_unavailable' } },
    ]);
  });

  it('refuses onEvent or dedupe beside an inbox, and an inbox without add', () => {
    const inbox = new Inbox(new MemoryInboxStore());
    expect(() => createWebhookHandler({ secret, inbox, onEvent: () => undefined })).toThrow(/inbox worker/);
    expect(() => createWebhookHandler({ secret, inbox, dedupe: new MemoryDedupeStore() })).toThrow(
      /inbox worker/,
    );
    expect(() => createWebhookHandler({ secret, inbox: {} as WebhookHandlerOptions['inbox'] })).toThrow(
      /one with add/,
    );
  });
});
