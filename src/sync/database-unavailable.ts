import { ERROR_CLASS, ShopError } from '../core/errors/shop-error.js';
import { isRedisUnavailable, redisFailureText } from '../internal/redis-client.js';

/**
 * The database did not answer or dropped the connection (a restart, a failover, a timeout), or a SQLite file
 * stayed locked past the wait. Safe to retry: on SQL nothing was committed, on Redis every call is safe to
 * repeat. The client's own error is the `cause`.
 */
export class DatabaseUnavailableError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'DatabaseUnavailableError';
  override readonly name: string = 'DatabaseUnavailableError';
  /** Always true: the same call may succeed once the database is back. */
  readonly retryable = true;
}

/** A node-redis or ioredis error as a {@link DatabaseUnavailableError} when Redis is away; anything else unchanged. */
export function redisUnavailableOr(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isRedisUnavailable(error)) return error;
  return new DatabaseUnavailableError(
    `Redis is unavailable (${redisFailureText(error)}); the call may not have reached it, try it again.`,
    { cause: error },
  );
}
