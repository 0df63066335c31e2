// The one error the inbox stores and the sync engine give when their database is away for a while (a
// restart, a failover, a killed or timed-out connection, a stalled server, another process's write lock):
// nothing was written, and the same call made again later may well succeed.
import { ERROR_CLASS, ShopError } from '../core/errors/shop-error.js';

/**
 * The database did not answer or dropped the connection (Postgres restarting, failing over, a backend
 * terminated, `idle_session_timeout`, a stalled server), or a SQLite file stayed locked by another process
 * past the wait. Nothing of the call was committed; it is safe to try again: the webhook receiver answers 503
 * (the sender retries) and the inbox worker retries the event.
 */
export class DatabaseUnavailableError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'DatabaseUnavailableError';
  override readonly name: string = 'DatabaseUnavailableError';
  /** Always true: the same call may succeed once the database is back. */
  readonly retryable = true;
}
