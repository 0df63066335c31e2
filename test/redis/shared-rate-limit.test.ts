// One shop's rate limit shared across processes through RedisRateLimitStore, against a real redis-server and
// the sandbox served over HTTP. The workers are child processes (bench/scale-worker.ts), each with its own
// Redis client and event loop, as a partner's would be; the sandbox counts every request of the shop,
// whichever key sends it. Comparison runs without the shared store show what each test would see if
// sharing did not work.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { CallOutcome, WorkerSetup } from '../../bench/scale-worker.js';
import { startWorkers, type Worker } from '../../bench/scale-workers.js';
import type { RateLimitStore } from '../../src/core/rate-limit/rate-limit-store.js';
import { RedisRateLimitStore } from '../../src/core/rate-limit/rate-limit-store-redis.js';
import { isShopError, ShopClient } from '../../src/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../setup/redis-server.js';

const redisUrl = inject('redisUrl');
const runPrefix = `test:rate-limit:${randomUUID()}:`;

/**
 * A sandbox served over HTTP that notes when each request arrived and what it was answered. `beforeNext`, when
 * set, runs (once) as the next request arrives, before the sandbox answers it.
 */
async function servedSandbox(options: SandboxOptions) {
  const sandbox = createSandbox(options);
  const seen: { at: number; status: number; retryAfter: string | null }[] = [];
  const hooks: { beforeNext?: (() => void) | undefined } = {};
  const handle = sandbox.handle;
  sandbox.handle = async (request, info) => {
    const at = Date.now();
    const before = hooks.beforeNext;
    hooks.beforeNext = undefined;
    before?.();
    const response = await handle(request, info);
    seen.push({ at, status: response.status, retryAfter: response.headers.get('retry-after') });
    return response;
  };
  const server = await sandbox.listen();
  return { sandbox, seen, server, hooks };
}

let workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  workers = [];
});

function setupFor(
  sandbox: Sandbox,
  baseUrl: string,
  store: WorkerSetup['store'],
  extra: Partial<WorkerSetup> & { requestsPerMinute: number; keyPrefix: string },
): WorkerSetup {
  // Every worker has a key of its own: the shop's limit is per shop, whatever the key.
  return {
    shops: [{ key: 'shop-1', baseUrl, apiKey: sandbox.createKey() }],
    store,
    redisUrl: redisUrl!,
    maxRetries: 0,
    ...extra,
  };
}

const notOk = (outcomes: CallOutcome[]) => outcomes.filter((outcome) => outcome.outcome !== 'ok');

describe.skipIf(!redisUrl)('RedisRateLimitStore over a real redis-server', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  async function stores(): Promise<[string, RateLimitStore][]> {
    const ioredis = new Redis(redisUrl!);
    const nodeRedis = await createClient({ url: redisUrl! }).connect();
    closers.push(
      () => ioredis.quit(),
      () => nodeRedis.quit(),
    );
    return [
      ['ioredis', new RedisRateLimitStore(ioredis, { keyPrefix: runPrefix })],
      ['node-redis', new RedisRateLimitStore(nodeRedis, { keyPrefix: runPrefix })],
    ];
  }

  it('hands out slots an interval apart to both clients, refuses past the longest wait, and pauses', async () => {
    const [io, node] = (await stores()).map(([, store]) => store);
    const key = `contract-${randomUUID()}`;
    // Each wait is its slot minus Redis's time when the call ran (the machine's clock, to the ms): bracketed
    // by our clock before and after the call, so a loaded machine stretches the bracket, never the check.
    const timed = async (call: () => Promise<{ waitMs: number; slot: number | null }>) => {
      const before = Date.now();
      const reply = await call();
      return { ...reply, before, after: Date.now() };
    };
    const waitsUntil = (reply: { waitMs: number; before: number; after: number }, at: number) => {
      expect(reply.waitMs).toBeGreaterThanOrEqual(at - reply.after - 1);
      expect(reply.waitMs).toBeLessThanOrEqual(at - reply.before + 1);
    };
    const first = await io!.reserve(key, 1_000, 60_000);
    const second = await timed(() => node!.reserve(key, 1_000, 60_000));
    expect(first.waitMs).toBe(0);
    expect(second.slot! - first.slot!).toBe(1_000);
    waitsUntil(second, second.slot!);

    // Past the longest wait: refused, and the slot stays free for the next caller.
    const refused = await timed(() => io!.reserve(key, 1_000, 500));
    expect(refused).toMatchObject({ slot: null });
    waitsUntil(refused, first.slot! + 2_000);
    const third = await node!.reserve(key, 1_000, 60_000);
    expect(third.slot! - second.slot!).toBe(1_000);

    // A held slot is confirmed as it stands, until a pause covers it; then a slot after the pause.
    expect(await io!.reserve(key, 1_000, 60_000, third.slot)).toEqual({ waitMs: 0, slot: third.slot });
    const paused = Date.now();
    await node!.pause(key, 10_000);
    const moved = await timed(() => io!.reserve(key, 1_000, 60_000, third.slot));
    expect(moved.slot!).toBeGreaterThanOrEqual(paused + 10_000 - 1);
    expect(moved.slot! - first.slot!).toBeGreaterThanOrEqual(10_000);
    waitsUntil(moved, moved.slot!);
    // A shorter pause leaves the longer one.
    await io!.pause(key, 1);
    expect((await node!.reserve(key, 1_000, 60_000)).slot!).toBeGreaterThan(moved.slot!);
  });

  it('keeps a shop key only as long as its schedule reaches ahead', async () => {
    const ioredis = new Redis(redisUrl!);
    closers.push(() => ioredis.quit());
    const key = `ttl-${randomUUID()}`;
    const before = Date.now();
    await new RedisRateLimitStore(ioredis, { keyPrefix: runPrefix }).reserve(key, 2_000, 60_000);
    const ttl = await ioredis.pttl(runPrefix + key);
    // Set to the next slot (2 s ahead) plus 1 s as the call ran, less whatever time passed until the read.
    expect(ttl).toBeGreaterThan(3_000 - (Date.now() - before) - 2);
    expect(ttl).toBeLessThanOrEqual(3_000);
  });

  it('paces three worker processes (ioredis and node-redis) as one: no 429, where unshared they crowd each other', async () => {
    // 60 a sandbox minute at 30x: 30 a wall second for the shop. Each worker is told 90 % of the whole.
    const speed = 30;
    const requestsPerMinute = 60 * speed * 0.9;
    const run = async (store: 'shared' | 'memory') => {
      const { sandbox, seen, server } = await servedSandbox({ clock: 'real', clockSpeed: speed });
      try {
        const keyPrefix = `${runPrefix}share-${store}:`;
        const kinds: WorkerSetup['store'][] =
          store === 'shared' ? ['ioredis', 'node-redis', 'ioredis'] : ['memory', 'memory', 'memory'];
        workers = await startWorkers(3, (i) =>
          setupFor(sandbox, server.url, kinds[i]!, { requestsPerMinute, keyPrefix }),
        );
        // A fresh window as they start: 72 calls at 81 a second (unshared) all fall in its 2 s.
        const now = sandbox.clock.nowMs();
        sandbox.clock.set(now - (now % 60_000) + 60_000);
        const replies = await Promise.all(workers.map((worker) => worker.run({ calls: 24, mix: 'read' })));
        await Promise.all(workers.map((worker) => worker.stop()));
        workers = [];
        return { seen, outcomes: replies.flatMap((reply) => reply.outcomes) };
      } finally {
        await server.close();
      }
    };

    const shared = await run('shared');
    expect(notOk(shared.outcomes)).toEqual([]);
    expect(shared.seen.filter((request) => request.status === 429)).toEqual([]);
    // 72 starts, each at least one interval after the one before, whichever process made it.
    const arrivals = shared.seen.map((request) => request.at).sort((a, b) => a - b);
    expect(arrivals).toHaveLength(72);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(71 * (60_000 / requestsPerMinute) * 0.9);

    // Unshared, each process paces only itself: the three streams start calls regardless of each other, so
    // many arrive close behind another's (the first three at once). Counted, not timed against the shop's
    // window: whether those calls then add up to a 429 depends on how fast a loaded machine lets them run.
    const unshared = await run('memory');
    const interval = 60_000 / requestsPerMinute;
    const unsharedArrivals = unshared.seen.map((request) => request.at).sort((a, b) => a - b);
    const crowded = unsharedArrivals.filter((at, i) => i > 0 && at - unsharedArrivals[i - 1]! < interval / 4);
    expect(unsharedArrivals).toHaveLength(72);
    expect(crowded.length).toBeGreaterThanOrEqual(5);
  }, 90_000);

  it("pauses the other processes on one's 429 until its Retry-After has passed", async () => {
    const scenario = async (store: 'shared' | 'memory') => {
      // Five a minute, and the window ends three seconds after the shop's budget is spent.
      const { sandbox, seen, server, hooks } = await servedSandbox({
        clock: 'real',
        rateLimits: { perMinute: 5 },
      });
      try {
        const keyPrefix = `${runPrefix}pause-${store}:`;
        const kinds: WorkerSetup['store'][] =
          store === 'shared' ? ['ioredis', 'node-redis', 'ioredis'] : ['memory', 'memory', 'memory'];
        workers = await startWorkers(3, (i) =>
          setupFor(sandbox, server.url, kinds[i]!, { requestsPerMinute: 6_000, keyPrefix }),
        );
        const now = sandbox.clock.nowMs();
        const windowEnd = now - (now % 60_000) + 120_000;
        sandbox.clock.set(windowEnd - 60_000);
        const other = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url, maxRetries: 0 });
        for (let i = 0; i < 5; i++) await other.products.list({ limit: 1 });

        // The window ends three seconds after the refused request arrives, to the ms, however long the
        // calls before it took on a loaded machine.
        hooks.beforeNext = () => sandbox.clock.set(windowEnd - 3_000);
        const first = await workers[0]!.run({ calls: 1, mix: 'read' });
        const limited = seen.at(-1)!;
        const rest = await Promise.all(
          workers.slice(1).map((worker) => worker.run({ calls: 2, mix: 'read' })),
        );
        const later = seen.filter((request) => request.at > limited.at);
        return { first: first.outcomes, limited, later, rest: rest.flatMap((reply) => reply.outcomes) };
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
        workers = [];
        await server.close();
      }
    };

    const shared = await scenario('shared');
    expect(shared.first.map((outcome) => outcome.outcome)).toEqual(['RateLimitError']);
    expect(shared.limited).toMatchObject({ status: 429, retryAfter: '3' });
    expect(shared.later).toHaveLength(4);
    // Redis's clock and ours are the machine's: a few ms of rounding at most.
    for (const request of shared.later)
      expect(request.at).toBeGreaterThanOrEqual(shared.limited.at + 3_000 - 20);
    expect(shared.later.map((request) => request.status)).toEqual([200, 200, 200, 200]);
    expect(notOk(shared.rest)).toEqual([]);

    // Unshared, the others do not wait: refused again, so sent before the window (and Retry-After) ran out.
    const unshared = await scenario('memory');
    expect(unshared.later.some((request) => request.status === 429)).toBe(true);
  }, 90_000);
});

describe.skipIf(!hasRedisServer())('Redis stopped mid-run', () => {
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await startOwnRedis();
  });
  afterAll(() => redis?.stop());

  it('paces locally with one warning, never hangs or throws an untyped error, and goes back to Redis when it returns', async () => {
    const { sandbox, server } = await servedSandbox({ clock: 'real', rateLimits: { perMinute: 100_000 } });
    try {
      workers = await startWorkers(2, (i) => ({
        shops: [{ key: 'shop-1', baseUrl: server.url, apiKey: sandbox.createKey() }],
        store: i === 0 ? 'ioredis' : 'node-redis',
        redisUrl: redis.url,
        keyPrefix: 'stopped:',
        requestsPerMinute: 1_200,
        maxRetries: 0,
        commandTimeoutMs: 200,
      }));
      const start = Date.now();
      const runs = Promise.all(
        workers.map((worker) => worker.run({ untilMs: start + 6_500, mix: 'walk-and-write' })),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const stopping = Date.now();
      await redis.stop();
      // Down 3 s: fifteen times the command timeout, so a call that outlives it waited for Redis.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await redis.start();
      const restarted = Date.now();
      const replies = await runs;

      for (const { outcomes, warnings } of replies) {
        expect(notOk(outcomes)).toEqual([]);
        expect(outcomes.filter((outcome) => outcome.untyped)).toEqual([]);
        // A call hung on the dead server would last until it came back: none outlives the outage (its
        // command gives up after commandTimeoutMs and it paces locally), and calls go on after it.
        const outlived = outcomes.filter(
          (outcome) => outcome.started < stopping && outcome.ended > restarted,
        );
        expect(outlived).toEqual([]);
        expect(outcomes.some((outcome) => outcome.started > restarted)).toBe(true);
        const failed = warnings.filter((line) => /rate-limit store failed/.test(line));
        expect(failed).toHaveLength(1);
        expect(warnings.some((line) => /rate-limit store answers again/.test(line))).toBe(true);
      }
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('RedisRateLimitStore without a server', () => {
  it('refuses something that is not a Redis client, with a ShopError', () => {
    expect(() => new RedisRateLimitStore({} as never)).toThrow(/node-redis or ioredis client/);
    expect(() => new RedisRateLimitStore({ call: async () => null }, { commandTimeoutMs: 0 })).toThrow(
      /commandTimeoutMs must be 1 to 60000 ms/,
    );
  });

  it('gives up on a command the client never answers after commandTimeoutMs, with a ShopError', async () => {
    // What a client with an offline queue does while its server is gone: the promise just stays pending.
    const silent = { call: () => new Promise<never>(() => {}) };
    vi.useFakeTimers();
    try {
      const store = new RedisRateLimitStore(silent, { commandTimeoutMs: 50 });
      let error: unknown;
      const settled = store.reserve('shop', 1_000, 60_000).catch((reason: unknown) => {
        error = reason;
      });
      // Given up after 50 ms of the (fake) clock, not one tick before: no wall-clock margin.
      await vi.advanceTimersByTimeAsync(49);
      expect(error).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await settled;
      expect(isShopError(error)).toBe(true);
      expect((error as Error).message).toMatch(/Redis did not answer within 50 ms/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('turns a client error or an unexpected reply into a ShopError', async () => {
    const failing = new RedisRateLimitStore({
      call: async () => Promise.reject(new TypeError('socket closed')),
    });
    await expect(failing.pause('shop', 1_000)).rejects.toThrow(/RedisRateLimitStore: socket closed/);
    const odd = new RedisRateLimitStore({ call: async () => 'OK' });
    const error = await odd.reserve('shop', 1_000, 60_000).catch((reason: unknown) => reason);
    expect(isShopError(error)).toBe(true);
    expect((error as Error).message).toMatch(/unexpected reply/);
  });
});
