// A partner's worker process, driven over IPC by bench/scale.ts and test/redis/*.test.ts: one ShopClient per
// shop it is told about, throttled through a RateLimitStore on a Redis client of its own (or, for the
// comparison runs, a MemoryRateLimitStore of its own). Each `run` makes calls and reports every outcome;
// nothing here decides whether a run passed.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { MemoryRateLimitStore, type RateLimitStore } from '../src/core/rate-limit/rate-limit-store.js';
import { RedisRateLimitStore } from '../src/core/rate-limit/rate-limit-store-redis.js';
import { isShopError, type Logger, type Page, ShopClient } from '../src/index.js';
import type { Product } from '../src/schemas.js';

export interface WorkerShop {
  readonly key: string;
  readonly baseUrl: string;
  readonly apiKey: string;
}

export interface WorkerSetup {
  readonly shops: readonly WorkerShop[];
  /** 'memory': a store of this process's own, the unshared comparison. */
  readonly store: 'ioredis' | 'node-redis' | 'memory';
  readonly redisUrl?: string;
  readonly keyPrefix?: string;
  readonly requestsPerMinute: number;
  readonly maxRetries: number;
  readonly maxRetryAfterSeconds?: number;
  readonly commandTimeoutMs?: number;
}

/** What to do: `calls` calls per shop (or until `untilMs`, epoch), walking pages and writing in turn. */
export interface WorkerRun {
  readonly calls?: number;
  readonly untilMs?: number;
  /** 'read': one GET each; 'walk-and-write': a list page, then a write (a customer note), in turn. */
  readonly mix: 'read' | 'walk-and-write';
}

/** One call's outcome: when it was made and ended (epoch ms), and 'ok' or the error's name. */
export interface CallOutcome {
  readonly shop: string;
  readonly started: number;
  readonly ended: number;
  readonly outcome: string;
  /** True for an error outside the SDK's ShopError family. */
  readonly untyped: boolean;
  readonly message?: string;
}

export type WorkerReply =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly outcomes: CallOutcome[]; readonly warnings: string[] };

const warnings: string[] = [];
const logger: Logger = {
  debug: () => {},
  info: (message) => warnings.push(message),
  warn: (message) => warnings.push(message),
  error: (message) => warnings.push(message),
};

let clients: { shop: WorkerShop; client: ShopClient }[] = [];
let closeRedis: () => Promise<unknown> = async () => {};

async function storeFor(setup: WorkerSetup): Promise<RateLimitStore> {
  const options = { keyPrefix: setup.keyPrefix, commandTimeoutMs: setup.commandTimeoutMs };
  if (setup.store === 'ioredis') {
    const redis = new Redis(setup.redisUrl!, { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
    redis.on('error', () => {}); // a stopped server is part of some runs; the throttle reports it
    closeRedis = () => redis.quit().catch(() => redis.disconnect());
    return new RedisRateLimitStore(redis, options);
  }
  if (setup.store === 'node-redis') {
    const redis = createClient({ url: setup.redisUrl!, socket: { reconnectStrategy: () => 100 } });
    redis.on('error', () => {});
    await redis.connect();
    closeRedis = () => redis.quit().catch(() => redis.destroy());
    return new RedisRateLimitStore(redis, options);
  }
  return new MemoryRateLimitStore();
}

async function setUp(setup: WorkerSetup): Promise<void> {
  const store = await storeFor(setup);
  clients = setup.shops.map((shop) => ({
    shop,
    client: new ShopClient({
      apiKey: shop.apiKey,
      baseUrl: shop.baseUrl,
      logger,
      logLevel: 'info',
      maxRetries: setup.maxRetries,
      maxRetryAfterSeconds: setup.maxRetryAfterSeconds,
      throttle: { requestsPerMinute: setup.requestsPerMinute, store, key: shop.key },
    }),
  }));
}

/** Where a shop's walk stands: the last page read. */
const walks = new Map<string, Page<Product>>();

async function call(
  shop: WorkerShop,
  client: ShopClient,
  index: number,
  mix: WorkerRun['mix'],
): Promise<void> {
  const page = walks.get(shop.key);
  if (mix === 'read' || index % 2 === 0 || !page) {
    walks.set(
      shop.key,
      page?.hasNextPage() ? await page.getNextPage() : await client.products.list({ limit: 20 }),
    );
  } else {
    await client.products.update(page.data[0]?.id ?? 1, { reorder_qty: index % 50 });
  }
}

async function runShop(shop: WorkerShop, client: ShopClient, run: WorkerRun): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  for (let index = 0; ; index++) {
    if (run.calls !== undefined && index >= run.calls) break;
    if (run.untilMs !== undefined && Date.now() >= run.untilMs) break;
    const started = Date.now();
    try {
      await call(shop, client, index, run.mix);
      outcomes.push({ shop: shop.key, started, ended: Date.now(), outcome: 'ok', untyped: false });
    } catch (error) {
      const name = error instanceof Error ? error.name : typeof error;
      const message = error instanceof Error ? error.message : String(error);
      outcomes.push({
        shop: shop.key,
        started,
        ended: Date.now(),
        outcome: name,
        untyped: !isShopError(error),
        message,
      });
    }
  }
  return outcomes;
}

process.on('message', (message: { setup?: WorkerSetup; run?: WorkerRun; stop?: true }) => {
  void (async () => {
    if (message.setup) {
      await setUp(message.setup);
      process.send!({ type: 'ready' } satisfies WorkerReply);
    } else if (message.run) {
      const run = message.run;
      const perShop = await Promise.all(clients.map(({ shop, client }) => runShop(shop, client, run)));
      process.send!({
        type: 'done',
        outcomes: perShop.flat(),
        warnings: warnings.splice(0),
      } satisfies WorkerReply);
    } else if (message.stop) {
      await closeRedis();
      process.disconnect();
    }
  })();
});
