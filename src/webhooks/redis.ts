/**
 * A DedupeStore over your own node-redis or ioredis client.
 *
 * @module shop-sdk/webhooks/redis
 */
// `shop-sdk/webhooks/redis`: a DedupeStore over the caller's own Redis client. Neither node-redis nor ioredis
// is imported: the client is duck-typed, so the SDK adds no Redis dependency and works with either.
import type { DedupeStore } from './dedupe.js';
import { WebhookConfigurationError } from './errors.js';

/** The ioredis calls used (`Redis` and `Cluster` both have them). */
export interface IoRedisLike {
  /** ioredis's generic command call: the store sends `SET ... NX EX` and `EVAL` through it. */
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** The node-redis (v4, v5) calls used; `createClient()` and `createCluster()` both have them. */
export interface NodeRedisLike {
  /** node-redis's SET with options: claims an id only if nobody holds it, with an expiry. */
  set(key: string, value: string, options: { NX: true; EX: number }): Promise<unknown>;
  /** node-redis's EVAL: releases a claim only while it still holds the token that claimed it. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** node-redis's DEL. */
  del(key: string): Promise<unknown>;
}

/** A connected node-redis or ioredis client. */
export type RedisClientLike = IoRedisLike | NodeRedisLike;

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** Prefix of every key, so several endpoints or apps can share one Redis. @default 'shop-sdk:webhook-event:' */
  keyPrefix?: string;
}

// Deletes the key only while it still holds this claim's token, in one atomic step.
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

function isIoRedis(client: RedisClientLike): client is IoRedisLike {
  return typeof (client as Partial<IoRedisLike>).call === 'function';
}

/**
 * A {@link DedupeStore} in Redis, for receivers running on several machines. `claim` is one
 * `SET key <random token> NX EX ttl`, atomic across every process that shares the Redis, and resolves with
 * the token; `release(id, token)` deletes the key only while it still holds that token (a compare-and-delete
 * script), so a handler whose claim ran out never deletes the claim another delivery took since.
 *
 * node-redis and ioredis spell EVAL differently (`eval(script, { keys, arguments })` against
 * `eval(script, numKeys, ...keysAndArgs)`); the store sends it through node-redis's `eval` and ioredis's
 * `call('EVAL', ...)`, which both clients' clusters route by the key.
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
      (typeof candidate?.set === 'function' &&
        typeof candidate.eval === 'function' &&
        typeof candidate.del === 'function');
    if (!usable) {
      throw new WebhookConfigurationError(
        'RedisDedupeStore needs a node-redis or ioredis client (one with set/eval/del, or call).',
      );
    }
    this.#client = client;
    this.#prefix = options.keyPrefix ?? 'shop-sdk:webhook-event:';
  }

  /** Takes the id for `ttlSeconds`: a random token for {@link release}, or false while it is held. */
  async claim(eventId: string, ttlSeconds: number): Promise<string | false> {
    const key = this.#prefix + eventId;
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    const token = crypto.randomUUID();
    const reply = isIoRedis(this.#client)
      ? await this.#client.call('SET', key, token, 'NX', 'EX', ttl)
      : await this.#client.set(key, token, { NX: true, EX: ttl });
    // 'OK' when set; null when the key exists. RESP3 and type mappings may wrap the simple string.
    return reply !== null && reply !== undefined && String(reply) === 'OK' ? token : false;
  }

  /**
   * Gives the id back: with `token`, only while the key still holds it; without (callers from before
   * tokens), whatever holds it.
   */
  async release(eventId: string, token?: string): Promise<void> {
    const key = this.#prefix + eventId;
    if (token === undefined) {
      if (isIoRedis(this.#client)) await this.#client.call('DEL', key);
      else await this.#client.del(key);
    } else if (isIoRedis(this.#client)) {
      await this.#client.call('EVAL', RELEASE_SCRIPT, 1, key, token);
    } else {
      await this.#client.eval(RELEASE_SCRIPT, { keys: [key], arguments: [token] });
    }
  }
}
