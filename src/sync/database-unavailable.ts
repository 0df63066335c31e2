// The one error the inbox stores, the Redis dedupe store and the sync engine give when their database is away
// for a while (a restart, a failover, a killed or timed-out connection, a stalled server, another process's
// write lock): the same call made again later may well succeed.
import { ERROR_CLASS, ShopError } from '../core/errors/shop-error.js';
import { isRedisUnavailable, redisFailureText } from '../internal/redis-client.js';

/**
 * The database did not answer or dropped the connection (Postgres or Redis restarting, failing over, a
 * connection terminated or killed, `idle_session_timeout`, a stalled server, a command timeout), or a SQLite
 * file stayed locked by another process past the wait. It is safe to try the call again: the webhook
 * receiver answers 503 (the sender retries) and the inbox worker retries the event. On SQL databases nothing
 * of the call was committed; on Redis a command whose connection dropped before its answer may have run,
 * and every store call is made so that running it again is harmless. The client's own error is the `cause`.
 */
export class DatabaseUnavailableError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'DatabaseUnavailableError';
  override readonly name: string = 'DatabaseUnavailableError';
  /** Always true: the same call may succeed once the database is back. */
  readonly retryable = true;
}

/**
 * `error`, from a node-redis or ioredis command, as a {@link DatabaseUnavailableError} when it says Redis or
 * the connection to it is away; anything else (a wrong command, a script error) unchanged.
 */
export function redisUnavailableOr(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isRedisUnavailable(error)) return error;
  return new DatabaseUnavailableError(
    `Redis is unavailable (${redisFailureText(error)}); the call may not have reached it, try it again.`,
    { cause: error },
  );
}
