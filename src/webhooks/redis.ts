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
import { DatabaseUnavailableError, redisUnavailableOr } from '../sync/database-unavailable.js';
import type { DedupeStore } from './dedupe.js';
import { WebhookConfigurationError } from './errors.js';

export type { IoRedisLike, NodeRedisLike, RedisClientLike } from '../internal/redis-client.js';
export { DatabaseUnavailableError };

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** Prefix of every key, so several endpoints or apps can share one Redis. @default 'shop-mgmt:webhook-event:' */
  keyPrefix?: string;
}

// Deletes the key only while it still holds this claim's token, in one atomic step.
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
// Extends the lease only while the key still holds this claim's token.
const RENEW_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('EXPIRE', KEYS[1], ARGV[2]) end return 0";
// Marks the id done for the long TTL, whoever held it: the event was processed.
const COMPLETE_SCRIPT = "redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) return 1";
const IS_DONE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return 1 end return 0";
// The value of a done id; claims hold random UUIDs, never this.
const DONE = 'done';

/**
 * A {@link DedupeStore} in Redis with leases, for receivers running on several machines. `claim` is one
 * `SET key <random token> NX EX lease`, atomic across every process that shares the Redis, and resolves with
 * the token; the running handler renews it (compare-and-expire), `complete` sets the key to `done` for the
 * long TTL, and `release(id, token)` deletes the key only while it still holds that token (a
 * compare-and-delete script), so a handler whose lease ran out never deletes the claim another delivery
 * took since. A process that dies mid-handler leaves only its lease, which runs out.
 *
 * The store itself does not bound its calls: the webhook handler and the catch-up do (`storeTimeoutMs`,
 * 500 ms by default). For no loss across a Redis restart, run Redis with persistence (AOF,
 * `appendfsync everysec`): a restart without it forgets which events are done (duplicates, not losses).
 *
 * While Redis is away (a connection closed, dropped or refused, a command timeout) calls reject with a
 * {@link DatabaseUnavailableError}, the client's error as its `cause`.
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
    // The client's connection errors reject as a DatabaseUnavailableError (the handler answers 503).
    this.#redis = redisCommands(client, redisUnavailableOr);
    this.#prefix = options.keyPrefix ?? 'shop-mgmt:webhook-event:';
  }

  /** Takes the id in progress for `leaseSeconds`: a random token, or false while it is held. */
  async claim(eventId: string, leaseSeconds: number): Promise<string | false> {
    const key = this.#prefix + eventId;
    const token = crypto.randomUUID();
    return (await this.#redis.setIfAbsent(key, token, wholeSeconds(leaseSeconds))) ? token : false;
  }

  /** Extends the lease while the key still holds `token`. */
  async renew(eventId: string, token: string, leaseSeconds: number): Promise<boolean> {
    const reply = await this.#redis.evaluate(
      RENEW_SCRIPT,
      [this.#prefix + eventId],
      [token, wholeSeconds(leaseSeconds)],
    );
    return Number(reply) === 1;
  }

  /** Marks the id done for `ttlSeconds`. */
  async complete(eventId: string, _token: string, ttlSeconds: number): Promise<void> {
    await this.#redis.evaluate(COMPLETE_SCRIPT, [this.#prefix + eventId], [DONE, wholeSeconds(ttlSeconds)]);
  }

  /** True when the id is done. */
  async isDone(eventId: string): Promise<boolean> {
    return Number(await this.#redis.evaluate(IS_DONE_SCRIPT, [this.#prefix + eventId], [DONE])) === 1;
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

function wholeSeconds(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}
