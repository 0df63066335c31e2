// A receiver on a RedisDedupeStore while its Redis is stopped (SIGSTOP), cut off through a proxy, and killed and
// restarted, with the sandbox delivering and retrying on its schedule: every delivery is answered (503 while the
// store is away, the store calls bounded at 500 ms), none waits anywhere near the service's 10 s, and once Redis
// is back the retries process every event: none lost.
import { spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, createServer as createNetServer, type Socket } from 'node:net';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { createSandbox } from '../../src/testing/index.js';
import { DEFAULT_STORE_TIMEOUT_MS, type DedupeStore } from '../../src/webhooks/dedupe.js';
import { createWebhookHandler } from '../../src/webhooks/handler.js';
import { RedisDedupeStore } from '../../src/webhooks/redis.js';
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../setup/redis-server.js';
import { deliveryHeaders, eventBody } from './helpers.js';

/** A TCP proxy to Redis that can be cut: the connections through it stop carrying anything, as a dead link. */
async function cuttableProxy(port: number) {
  const pairs = new Set<[Socket, Socket]>();
  let cut = false;
  const server = createNetServer((inbound) => {
    if (cut) {
      // A link that is down: the connection is never answered.
      pairs.add([inbound, inbound]);
      return;
    }
    const outbound = connect(port, '127.0.0.1');
    const pair: [Socket, Socket] = [inbound, outbound];
    pairs.add(pair);
    inbound.pipe(outbound).pipe(inbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      pairs.delete(pair);
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      cut = true;
      for (const [inbound, outbound] of pairs) {
        inbound.unpipe();
        outbound.unpipe();
        inbound.pause();
        outbound.pause();
      }
    },
    heal() {
      cut = false;
      for (const [inbound, outbound] of pairs) {
        inbound.destroy();
        outbound.destroy();
      }
      pairs.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function redisPid(port: number): number {
  const info = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'info', 'server'], {
    encoding: 'utf8',
  });
  const pid = /process_id:(\d+)/.exec(info.stdout)?.[1];
  if (!pid) throw new Error('no process_id from redis-cli info');
  return Number(pid);
}

let redis: OwnRedis | undefined;
afterAll(async () => {
  await redis?.stop();
});

describe.skipIf(!hasRedisServer())('a receiver whose Redis stalls, is cut off, and restarts', () => {
  it('answers every delivery within the bound and loses nothing once Redis is back', async () => {
    redis = await startOwnRedis();
    const proxy = await cuttableProxy(redis.port);
    const client = createClient({
      url: proxy.url,
      socket: { reconnectStrategy: () => 50, connectTimeout: 500 },
    });
    client.on('error', () => undefined);
    await client.connect();

    const sandbox = createSandbox({
      now: Date.now(),
      plan: 'enterprise',
      rateLimits: { perMinute: 1_000_000, perDay: null },
    });
    const api = await sandbox.listen();
    const shop = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: api.url, maxRetries: 0 });

    const processed = new Map<string, number>();
    const answerMs: number[] = [];
    const server = createHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { secret } = sandbox.webhooks.addEndpoint({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      types: ['coupon.created'],
    });
    const handler = createWebhookHandler({
      secret,
      toleranceSeconds: 30 * 24 * 3600,
      dedupe: new RedisDedupeStore(client),
      onEvent: (event) => {
        processed.set(event.id, (processed.get(event.id) ?? 0) + 1);
      },
      onError: () => undefined,
    });
    server.on('request', (req, res) => {
      const started = performance.now();
      res.once('finish', () => answerMs.push(performance.now() - started));
      void handler.node(req, res);
    });

    let coupon = 0;
    const deliverNew = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await shop.coupons.create({
          code: `TROUBLE${++coupon}`,
          name: 'redis trouble',
          percent_off: 5,
        } as never);
      }
      const before = sandbox.webhooks.deliveries().length;
      await sandbox.webhooks.flush();
      return sandbox.webhooks.deliveries().slice(before);
    };
    const statuses = (attempts: { httpStatus: number | null; error: string | null }[]) =>
      attempts.map((attempt) => attempt.httpStatus ?? attempt.error);

    // Healthy.
    expect(statuses(await deliverNew(5))).toEqual(Array(5).fill(200));

    // Stalled (SIGSTOP): every store call runs into its bound; the deliveries get 503 and are retried.
    const pid = redisPid(redis.port);
    process.kill(pid, 'SIGSTOP');
    try {
      expect(statuses(await deliverNew(5))).toEqual(Array(5).fill(503));
    } finally {
      process.kill(pid, 'SIGCONT');
    }

    // Cut off: the link carries nothing.
    proxy.cut();
    try {
      expect(statuses(await deliverNew(5))).toEqual(Array(5).fill(503));
    } finally {
      proxy.heal();
    }

    // Killed: nothing listens until it is started again (without persistence: it forgets the done marks).
    await redis.stop();
    try {
      expect(statuses(await deliverNew(5))).toEqual(Array(5).fill(503));
    } finally {
      await redis.start();
    }
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        await client.ping();
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    // Back: the service's retries (1 min, 5 min, ...) process what was refused.
    for (const gap of [60_000, 5 * 60_000, 30 * 60_000]) {
      sandbox.clock.advance(gap);
      await sandbox.webhooks.flush();
    }
    const created: string[] = [];
    for await (const event of shop.events.list({ type: 'coupon.created' })) created.push(event.id);
    expect(created).toHaveLength(20);
    expect(created.filter((id) => !processed.has(id))).toEqual([]);
    expect(sandbox.webhooks.pending()).toEqual([]);
    // No attempt timed out at the sandbox's 10 s: each was answered (the 503s above). How soon a stalled store
    // call gives up (storeTimeoutMs, 500 ms) is shown on a fake clock below, not measured here under load.
    expect(sandbox.webhooks.deliveries().filter((attempt) => attempt.error === 'timeout')).toEqual([]);
    console.log(
      `[redis trouble] ${answerMs.length} answers, slowest ${Math.max(...answerMs).toFixed(0)} ms, ` +
        `processed twice ${[...processed.values()].filter((n) => n > 1).length}`,
    );

    server.close();
    await api.close();
    await client.quit().catch(() => undefined);
    await proxy.close();
  }, 60_000);
});

describe('a stalled store call on a fake clock (what the run above relies on)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers 503 exactly at storeTimeoutMs (500 ms by default): nothing at 499 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
    expect(DEFAULT_STORE_TIMEOUT_MS).toBe(500);
    let claims = 0;
    const stalled: DedupeStore = {
      claim: () => {
        claims++;
        return new Promise<never>(() => undefined); // a Redis that never answers (SIGSTOP)
      },
      release: () => undefined,
    };
    const handler = createWebhookHandler({
      secret: 'whsec_stall',
      dedupe: stalled,
      onError: () => undefined,
    });
    const body = eventBody();
    let status: number | null = null;
    const pending = handler
      .handle({ body, headers: deliveryHeaders(body, 'whsec_stall', Math.floor(Date.now() / 1000)) })
      .then((result) => {
        status = result.status;
      });
    // Verified (Web Crypto settles outside the fake clock) and claiming: the clock has not moved.
    while (claims === 0) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(DEFAULT_STORE_TIMEOUT_MS - 1);
    expect(status).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(status).toBe(503);
    await pending;
  });
});
