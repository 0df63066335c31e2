import { loadOnce } from '../../internal/load-once.js';
import { ShopError } from '../errors/shop-error.js';
import type { SdkLogger } from '../observe/logger.js';
import type { Throttle } from './throttle.js';
import type { ThrottleOption } from './throttle-option.js';

/** What the transport asks of a client's pacing. */
export interface Pacing {
  /** Resolves when this attempt may start; rejects past `maxWaitMs`. */
  acquire(signal: AbortSignal | undefined, maxWaitMs: number): Promise<void>;
  /** Re-paces from a response's rate-limit headers (`'auto'`). */
  observe(headers: Headers): void;
  /** A 429 arrived: its Retry-After pauses the key. */
  rateLimited(headers: Headers): void;
}

/** The client's Throttle, loaded only when `throttle` is set. */
export class LazyThrottle implements Pacing {
  #throttle: Throttle | undefined;
  readonly #option: ThrottleOption;
  readonly #logger: SdkLogger;

  constructor(option: ThrottleOption, logger: SdkLogger) {
    this.#option = option;
    this.#logger = logger;
    // Started now so the first call rarely waits; a failure surfaces there.
    this.#load().catch(() => {});
  }

  readonly #load = loadOnce(() =>
    import('./throttle.js').then(
      ({ Throttle }) => {
        this.#throttle = new Throttle(this.#option, this.#logger);
        return this.#throttle;
      },
      (cause: unknown) => {
        const why = cause instanceof Error ? cause.message : String(cause);
        throw new ShopError(`Could not load the throttle, nothing was sent: ${why}`, { cause });
      },
    ),
  );

  acquire(signal: AbortSignal | undefined, maxWaitMs: number): Promise<void> {
    const throttle = this.#throttle;
    if (throttle) return throttle.acquire(signal, maxWaitMs);
    return this.#load().then((loaded) => loaded.acquire(signal, maxWaitMs));
  }

  observe(headers: Headers): void {
    this.#throttle?.observe(headers);
  }

  rateLimited(headers: Headers): void {
    this.#throttle?.rateLimited(headers);
  }
}
