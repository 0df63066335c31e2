// What the Redis stores (the inbox's RedisInboxStore, the webhook RedisDedupeStore) reject with while their
// redis-server is away, over a real server of this file's own that is stopped (SIGKILL), stalled (SIGSTOP)
// and started again: the client's plain `Error` (node-redis's "The client is offline", "Socket closed
// unexpectedly", a command timeout; ioredis's "Stream isn't writeable", "Command timed out") comes out as a
// DatabaseUnavailableError with that error as its cause, a message naming Redis and no URL password, as the
// Postgres store's do. Over HTTP, the webhook handler answers 503 and its `onError` is told the typed error;
// the inbox worker is told it too, lives on, and processes what comes once Redis is back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis as IoRedis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ShopError } from '../../../src/core/errors/shop-error.js';
import { DatabaseUnavailableError, redisUnavailableOr } from '../../../src/sync/database-unavailable.js';
import { Inbox } from '../../../src/sync/inbox/inbox.js';
import { RedisInboxStore } from '../../../src/sync/inbox/redis.js';
import { buildEvent, signedDelivery } from '../../../src/testing/factories/index.js';
import { createWebhookHandler } from '../../../src/webhooks/handler.js';
import { RedisDedupeStore } from '../../../src/webhooks/redis.js';
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../../setup/redis-server.js';

const SECRET = 'whsec_redis_unavailable_test_secret';

/** Resolves once `check` is true, polled every 20 ms; fails naming `what` after 10 s. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The rejection of `call`, which must reject. */
async function rejectionOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('the call resolved; it was expected to reject');
}

/**
 * Asserts `error` is the typed error over a client error whose `<class>: <message>` matches `cause`, and
 * returns that cause.
 */
function expectUnavailable(error: unknown, cause: RegExp): Error {
  expect(error).toBeInstanceOf(DatabaseUnavailableError);
  const typed = error as DatabaseUnavailableError;
  expect(typed.retryable).toBe(true);
  expect(typed.message).toMatch(/^Redis is unavailable \(.+\); the call may not have reached it/);
  const raw = typed.cause as Error;
  expect(raw).toBeInstanceOf(Error);
  expect(`${raw.constructor.name}: ${raw.message}`).toMatch(cause);
  return raw;
}

describe('the Redis error mapping', () => {
  it('wraps a connection error with its cause, and cuts the password out of a URL in its message', () => {
    const raw = Object.assign(new Error('connect ECONNREFUSED redis://app:s3cret-pw@10.0.0.9:6379'), {
      code: 'ECONNREFUSED',
    });
    const typed = redisUnavailableOr(raw) as DatabaseUnavailableError;
    expect(typed).toBeInstanceOf(DatabaseUnavailableError);
    expect(typed.cause).toBe(raw);
    expect(typed.message).toBe(
      'Redis is unavailable (connect ECONNREFUSED redis://[redacted]@10.0.0.9:6379); the call may not have reached it, try it again.',
    );
  });

  it('leaves an error that is not about the connection as it was', () => {
    const wrong = new Error('ERR Error running script (call to f_0): @user_script:1: bad');
    const noGroup = new Error('NOGROUP No such key or consumer group');
    const busyGroup = new Error('BUSYGROUP Consumer Group name already exists');
    expect(redisUnavailableOr(busyGroup)).toBe(busyGroup);
    expect(redisUnavailableOr(wrong)).toBe(wrong);
    expect(redisUnavailableOr(noGroup)).toBe(noGroup);
    const typed = new ShopError('not Redis');
    expect(redisUnavailableOr(typed)).toBe(typed);
  });

  it('wraps a server that is loading or failing over', () => {
    for (const reply of ['LOADING Redis is loading the dataset in memory', "READONLY You can't write"]) {
      expect(redisUnavailableOr(new Error(reply))).toBeInstanceOf(DatabaseUnavailableError);
    }
  });
});

describe.skipIf(!hasRedisServer())('the Redis stores while their redis-server is away', () => {
  let server: OwnRedis;
  let down = false;
  const closers: (() => Promise<unknown> | unknown)[] = [];
  const stopServer = async () => {
    await server.stop();
    down = true;
  };
  const startServer = async () => {
    await server.start();
    down = false;
  };

  beforeAll(async () => {
    server = await startOwnRedis();
  });

  afterEach(async () => {
    server.thaw();
    if (down) await startServer();
    for (const close of closers.splice(0).reverse()) await close();
  });

  afterAll(async () => {
    server?.thaw();
    await server?.stop();
  });

  /** A node-redis client reconnecting every 100 ms, as the production guide wires it. */
  async function nodeRedis(options: { disableOfflineQueue?: boolean; timeoutMs?: number } = {}) {
    const client = createClient({
      url: server.url,
      disableOfflineQueue: options.disableOfflineQueue ?? false,
      socket: { reconnectStrategy: () => 100, connectTimeout: 1000 },
      ...(options.timeoutMs ? { commandOptions: { timeout: options.timeoutMs } } : {}),
    });
    client.on('error', () => undefined);
    await client.connect();
    closers.push(() => client.destroy());
    return client;
  }

  it('node-redis, offline queue off: stopped, both stores reject typed; started again, both work', async () => {
    const client = await nodeRedis({ disableOfflineQueue: true });
    const inbox = new RedisInboxStore(client, { keyPrefix: '{offline}:' });
    const dedupe = new RedisDedupeStore(client, { keyPrefix: 'offline:' });
    await inbox.setup();
    const event = buildEvent('sale.completed', { id: 'evt_offline_1' });

    await stopServer();
    await until('the client to notice', () => !client.isReady);
    expectUnavailable(
      await rejectionOf(inbox.add({ event, source: 'webhook', orderingKey: null, now: Date.now() })),
      /^ClientOfflineError: The client is offline$/,
    );
    expectUnavailable(
      await rejectionOf(dedupe.claim('evt_offline_1', 30)),
      /^ClientOfflineError: The client is offline$/,
    );
    expectUnavailable(
      await rejectionOf(
        inbox.lease({ limit: 4, leaseMs: 2000, now: Date.now(), worker: 'w1', ordered: false }),
      ),
      /^ClientOfflineError: The client is offline$/,
    );

    await startServer();
    await until('the client to reconnect', () => client.isReady);
    await inbox.setup();
    expect(await inbox.add({ event, source: 'webhook', orderingKey: null, now: Date.now() })).toBe(true);
    expect(typeof (await dedupe.claim('evt_offline_1', 30))).toBe('string');
  });

  it('node-redis: a command in flight when the server dies rejects typed (read ECONNRESET)', async () => {
    const client = await nodeRedis();
    const inbox = new RedisInboxStore(client, { keyPrefix: '{inflight}:' });
    const dedupe = new RedisDedupeStore(client, { keyPrefix: 'inflight:' });
    await inbox.setup();
    server.freeze();
    const adding = rejectionOf(
      inbox.add({
        event: buildEvent('sale.completed', { id: 'evt_inflight_1' }),
        source: 'webhook',
        orderingKey: null,
        now: Date.now(),
      }),
    );
    const claiming = rejectionOf(dedupe.claim('evt_inflight_1', 30));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await stopServer();
    expectUnavailable(await adding, /^Error: read ECONNRESET$/);
    expectUnavailable(await claiming, /^Error: read ECONNRESET$/);
    await startServer();
    await until('the client to reconnect', () => client.isReady);
    expect(await dedupe.isDone('evt_inflight_1')).toBe(false);
  });

  it('node-redis: a command that times out in the offline queue (server stopped) rejects typed', async () => {
    const client = await nodeRedis({ timeoutMs: 200 });
    const dedupe = new RedisDedupeStore(client, { keyPrefix: 'queued:' });
    await stopServer();
    await until('the client to notice', () => !client.isReady);
    expectUnavailable(await rejectionOf(dedupe.claim('evt_stalled_1', 30)), /^TimeoutError: $/);
  });

  it('ioredis, offline queue off: stopped, both stores reject typed; a command timeout too; then both work', async () => {
    const client = new IoRedis(server.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 300,
      retryStrategy: () => 100,
    });
    client.on('error', () => undefined);
    closers.push(() => client.disconnect());
    await until('ioredis to connect', () => client.status === 'ready');
    const inbox = new RedisInboxStore(client, { keyPrefix: '{io}:' });
    const dedupe = new RedisDedupeStore(client, { keyPrefix: 'io:' });
    await inbox.setup();

    server.freeze();
    expectUnavailable(await rejectionOf(dedupe.isDone('evt_io_1')), /^Error: Command timed out$/);
    await stopServer();
    await until('ioredis to notice', () => client.status !== 'ready');
    expectUnavailable(await rejectionOf(dedupe.claim('evt_io_1', 30)), /^Error: Stream isn't writeable/);
    expectUnavailable(
      await rejectionOf(
        inbox.lease({ limit: 4, leaseMs: 2000, now: Date.now(), worker: 'w1', ordered: false }),
      ),
      /^Error: Stream isn't writeable/,
    );

    await startServer();
    await until('ioredis to reconnect', () => client.status === 'ready');
    expect(typeof (await dedupe.claim('evt_io_1', 30))).toBe('string');
  });

  it('over HTTP: the handler answers 503 and tells onError the typed error; the worker is told too, lives, and processes after', async () => {
    const client = await nodeRedis({ disableOfflineQueue: true });
    const store = new RedisInboxStore(client, { keyPrefix: '{http}:' });
    const inbox = new Inbox(store, { retryBaseMs: 50, retryMaxMs: 200 });
    await inbox.ready();
    const receiverErrors: unknown[] = [];
    const workerErrors: unknown[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      inbox,
      onError: (error) => receiverErrors.push(error),
    });
    const processed: string[] = [];
    const worker = inbox.work(
      async (event) => {
        processed.push(event.id);
      },
      { pollMs: 20, onError: (error) => workerErrors.push(error) },
    );
    closers.push(() => worker.stop());
    const http: Server = createServer((request, response) => void handler.node(request, response));
    await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening));
    closers.push(() => new Promise((closed) => http.close(closed)));
    const port = (http.address() as AddressInfo).port;
    const deliver = async (id: string) => {
      const delivery = await signedDelivery(buildEvent('sale.completed', { id }), { secret: SECRET });
      const response = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      await response.arrayBuffer();
      return response.status;
    };

    expect(await deliver('evt_http_before')).toBe(200);
    await until('the first event processed', () => processed.includes('evt_http_before'));
    await stopServer();
    await until('the client to notice', () => !client.isReady);
    expect(await deliver('evt_http_during')).toBe(503);
    expect(receiverErrors).toHaveLength(1);
    expectUnavailable(receiverErrors[0], /^ClientOfflineError: The client is offline$/);
    await until('the worker to be told', () => workerErrors.length > 0);
    // Its poll in flight when the server died, or its next one.
    expectUnavailable(
      workerErrors[0],
      /^(SocketClosedUnexpectedlyError: Socket closed unexpectedly|Error: read ECONNRESET|ClientOfflineError: The client is offline)$/,
    );

    await startServer();
    await until('the client to reconnect', () => client.isReady);
    expect(await deliver('evt_http_during')).toBe(200);
    await until('the event processed', () => processed.includes('evt_http_during'));
    expect(workerErrors.filter((error) => !(error instanceof DatabaseUnavailableError))).toEqual([]);
  });
});
