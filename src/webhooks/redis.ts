// `shop-sdk/webhooks/redis`: a DedupeStore over the caller's own Redis client. Neither node-redis nor ioredis
// is imported: the client is duck-typed, so the SDK adds no Redis dependency and works with either.
import type { DedupeStore } from './dedupe.js';
import { WebhookConfigurationError } from './errors.js';

/** The ioredis calls used (`Redis` and `Cluster` both have them). */
export interface IoRedisLike {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** The node-redis (v4, v5) calls used; `createClient()` and `createCluster()` both have them. */
export interface NodeRedisLike {
  set(key: string, value: string, options: { NX: true; EX: number }): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** A connected node-redis or ioredis client. */
export type RedisClientLike = IoRedisLike | NodeRedisLike;

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** Prefix of every key, so several endpoints or apps can share one Redis. @default 'shop-sdk:webhook-event:' */
  keyPrefix?: string;
}

function isIoRedis(client: RedisClientLike): client is IoRedisLike {
  return typeof (client as Partial<IoRedisLike>).call === 'function';
}

/**
 * A {@link DedupeStore} in Redis, for receivers running on several machines: `claim` is one
 * `SET key 1 NX EX ttl`, atomic across every process that shares the Redis, and `release` a `DEL`.
 *
 * @example
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const handler = createWebhookHandler({ secret, dedupe: new RedisDedupeStore(redis), onEvent });
 */
export class RedisDedupeStore implements DedupeStore {
  readonly #client: RedisClientLike;
  readonly #prefix: string;

  /** @param client a connected node-redis (v4 or v5) or ioredis client; the caller owns its lifecycle. */
  constructor(client: RedisClientLike, options: RedisDedupeStoreOptions = {}) {
    const candidate = client as Partial<IoRedisLike & NodeRedisLike> | null | undefined;
    const usable =
      typeof candidate?.call === 'function' ||
      (typeof candidate?.set === 'function' && typeof candidate.del === 'function');
    if (!usable) {
      throw new WebhookConfigurationError(
        'RedisDedupeStore needs a node-redis or ioredis client (one with set/del, or call).',
      );
    }
    this.#client = client;
    this.#prefix = options.keyPrefix ?? 'shop-sdk:webhook-event:';
  }

  async claim(eventId: string, ttlSeconds: number): Promise<boolean> {
    const key = this.#prefix + eventId;
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    const reply = isIoRedis(this.#client)
      ? await this.#client.call('SET', key, '1', 'NX', 'EX', ttl)
      : await this.#client.set(key, '1', { NX: true, EX: ttl });
    // 'OK' when set; null when the key exists. RESP3 and type mappings may wrap the simple string.
    return reply !== null && reply !== undefined && String(reply) === 'OK';
  }

  async release(eventId: string): Promise<void> {
    const key = this.#prefix + eventId;
    if (isIoRedis(this.#client)) await this.#client.call('DEL', key);
    else await this.#client.del(key);
  }
}
