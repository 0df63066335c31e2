/**
 * A DedupeStore over your own node-redis or ioredis client.
 *
 * @module shop-mgmt/webhooks/redis
 */
// `shop-mgmt/webhooks/redis`: a DedupeStore over the caller's own Redis client. Neither node-redis nor ioredis
// is imported: the client is duck-typed, so the SDK adds no Redis dependency and works with either.
import {
  isRedisClient,
  type RedisClientLike,
  type RedisCommands,
  redisCommands,
} from '../internal/redis-client.js';
import type { DedupeStore } from './dedupe.js';
import { WebhookConfigurationError } from './errors.js';

export type { IoRedisLike, NodeRedisLike, RedisClientLike } from '../internal/redis-client.js';

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** Prefix of every key, so several endpoints or apps can share one Redis. @default 'shop-mgmt:webhook-event:' */
  keyPrefix?: string;
}

// Deletes the key only while it still holds this claim's token, in one atomic step.
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * A {@link DedupeStore} in Redis, for receivers running on several machines. `claim` is one
 * `SET key <random token> NX EX ttl`, atomic across every process that shares the Redis, and resolves with
 * the token; `release(id, token)` deletes the key only while it still holds that token (a compare-and-delete
 * script), so a handler whose claim ran out never deletes the claim another delivery took since.
 *
 * Either client works, node-redis or ioredis (a cluster too); `RedisRateLimitStore` takes the same one.
 *
 * @example
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const handler = createWebhookHandler({ secret, dedupe: new RedisDedupeStore(redis), onEvent });
 */
export class RedisDedupeStore implements DedupeStore {
  readonly #redis: RedisCommands;
  readonly #prefix: string;

  /** @param client a connected node-redis (v4 or v5) or ioredis client; the caller owns its lifecycle. */
  constructor(client: RedisClientLike, options: RedisDedupeStoreOptions = {}) {
    if (!isRedisClient(client)) {
      throw new WebhookConfigurationError(
        'RedisDedupeStore needs a node-redis or ioredis client (one with set/eval/del, or call).',
      );
    }
    this.#redis = redisCommands(client);
    this.#prefix = options.keyPrefix ?? 'shop-mgmt:webhook-event:';
  }

  /** Takes the id for `ttlSeconds`: a random token for {@link release}, or false while it is held. */
  async claim(eventId: string, ttlSeconds: number): Promise<string | false> {
    const key = this.#prefix + eventId;
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    const token = crypto.randomUUID();
    return (await this.#redis.setIfAbsent(key, token, ttl)) ? token : false;
  }

  /**
   * Gives the id back: with `token`, only while the key still holds it; without (callers from before
   * tokens), whatever holds it.
   */
  async release(eventId: string, token?: string): Promise<void> {
    const key = this.#prefix + eventId;
    if (token === undefined) await this.#redis.delete(key);
    else await this.#redis.evaluate(RELEASE_SCRIPT, [key], [token]);
  }
}
