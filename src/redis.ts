/**
 * The SDK's stores over your own node-redis or ioredis client: webhook dedupe and shared rate limits.
 *
 * @module shop-mgmt/redis
 */
// Duck-typed: the SDK adds no Redis dependency.

export type { RateLimitReservation, RateLimitStore } from './core/rate-limit/rate-limit-store.js';
export {
  RedisRateLimitStore,
  type RedisRateLimitStoreOptions,
} from './core/rate-limit/rate-limit-store-redis.js';
export type { IoRedisLike, NodeRedisLike, RedisClientLike } from './internal/redis-client.js';
export {
  DatabaseUnavailableError,
  RedisDedupeStore,
  type RedisDedupeStoreOptions,
} from './webhooks/redis.js';
