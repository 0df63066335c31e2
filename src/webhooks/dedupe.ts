import { WebhookConfigurationError } from './errors.js';

/**
 * Remembers which event ids are taken, so an event delivered more than once (delivery is at least once, and
 * the feed replays what webhooks already brought) is processed once. Implement it over any shared store;
 * `claim` must be atomic across every process that shares the store.
 */
export interface DedupeStore {
  /**
   * Takes the event id for `ttlSeconds`. Resolves true only for the first claim of an id that is not held;
   * false while someone holds it.
   */
  claim(eventId: string, ttlSeconds: number): boolean | Promise<boolean>;
  /** Gives the id back after processing failed, so the sender's retry is processed. */
  release(eventId: string): void | Promise<void>;
}

/**
 * How long an event id stays claimed by default: 3 days. The API retries a failed delivery 9 times over
 * about 37 hours (reference section 6), so the latest retry still meets the claim.
 */
export const DEFAULT_DEDUPE_TTL_SECONDS = 3 * 24 * 60 * 60;

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * Most ids held at once; past it the oldest claims are forgotten first, so memory stays bounded even
   * under a flood. @default 100_000
   */
  maxEntries?: number;
  /** The clock in milliseconds, for tests. @default Date.now */
  now?: () => number;
}

/**
 * A {@link DedupeStore} in this process's memory: right for a receiver running as one process. Behind a load
 * balancer, or with several workers, use a shared store such as `RedisDedupeStore`.
 */
export class MemoryDedupeStore implements DedupeStore {
  readonly #expiries = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isInteger(this.#maxEntries) || this.#maxEntries < 1) {
      throw new WebhookConfigurationError('maxEntries must be a whole number, 1 or more.');
    }
    this.#now = options.now ?? Date.now;
  }

  /** How many ids are held (expired ones may linger until the next claim sweeps them). */
  get size(): number {
    return this.#expiries.size;
  }

  async claim(eventId: string, ttlSeconds: number): Promise<boolean> {
    const now = this.#now();
    const expiry = this.#expiries.get(eventId);
    if (expiry !== undefined && expiry > now) return false;
    // Delete first so the id moves to the end of the insertion order the eviction relies on.
    this.#expiries.delete(eventId);
    this.#expiries.set(eventId, now + ttlSeconds * 1000);
    this.#sweep(now);
    return true;
  }

  async release(eventId: string): Promise<void> {
    this.#expiries.delete(eventId);
  }

  #sweep(now: number): void {
    // Oldest claims first; a few expired ones are dropped per claim, which keeps the cost flat.
    let checked = 0;
    for (const [id, expiry] of this.#expiries) {
      const over = this.#expiries.size > this.#maxEntries;
      if (!over && (expiry > now || checked >= 8)) break;
      this.#expiries.delete(id);
      checked++;
    }
  }
}
