/**
 * A DedupeStore over your own node-redis or ioredis client.
 *
 * @module shop-mgmt/webhooks/redis
 */
// The client is duck-typed: no Redis dependency, node-redis or ioredis alike.
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
  /** Prefix of every key. @default 'shop-mgmt:webhook-event:' */
  keyPrefix?: string;
}

// Deletes the key only while it still holds this claim's token, in one atomic step.
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
// Extends the lease only while the key still holds this claim's token.
const RENEW_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('EXPIRE', KEYS[1], ARGV[2]) end return 0";
// Marks the id done for the long TTL, whoever held it.
const COMPLETE_SCRIPT = "redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) return 1";
const IS_DONE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return 1 end return 0";
// The value of a done id; claims hold random UUIDs, never this.
const DONE = 'done';

/**
 * A {@link DedupeStore} in Redis with leases, for receivers on several machines. While Redis is away calls
 * reject with a {@link DatabaseUnavailableError}.
 * @example
 * const handler = createWebhookHandler({ secret, dedupe: new RedisDedupeStore(redis), onEvent });
 */
export class RedisDedupeStore implements DedupeStore {
  readonly #redis: RedisCommands;
  readonly #prefix: string;

  /** @param client node-redis or ioredis, connected; the caller owns it. */
  constructor(client: RedisClientLike, options: RedisDedupeStoreOptions = {}) {
    if (!isRedisClient(client)) {
      throw new WebhookConfigurationError(
        'RedisDedupeStore needs a node-redis or ioredis client (one with set/eval/del, or call).',
      );
    }
    // Connection errors reject as DatabaseUnavailableError (the handler answers 503).
    this.#redis = redisCommands(client, redisUnavailableOr);
    this.#prefix = options.keyPrefix ?? 'shop-mgmt:webhook-event:';
  }

  async claim(eventId: string, leaseSeconds: number): Promise<string | false> {
    const key = this.#prefix + eventId;
    const token = crypto.randomUUID();
    return (await this.#redis.setIfAbsent(key, token, wholeSeconds(leaseSeconds))) ? token : false;
  }

  async renew(eventId: string, token: string, leaseSeconds: number): Promise<boolean> {
    const reply = await this.#redis.evaluate(
      RENEW_SCRIPT,
      [this.#prefix + eventId],
      [token, wholeSeconds(leaseSeconds)],
    );
    return Number(reply) === 1;
  }

  async complete(eventId: string, _token: string, ttlSeconds: number): Promise<void> {
    await this.#redis.evaluate(COMPLETE_SCRIPT, [this.#prefix + eventId], [DONE, wholeSeconds(ttlSeconds)]);
  }

  async isDone(eventId: string): Promise<boolean> {
    return Number(await this.#redis.evaluate(IS_DONE_SCRIPT, [this.#prefix + eventId], [DONE])) === 1;
  }

  async release(eventId: string, token?: string): Promise<void> {
    const key = this.#prefix + eventId;
    if (token === undefined) await this.#redis.delete(key);
    else await this.#redis.evaluate(RELEASE_SCRIPT, [key], [token]);
  }
}

function wholeSeconds(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}
