import { WebhookConfigurationError } from './errors.js';

/**
 * What {@link DedupeStore.claim} resolves with. Truthy when the id is now this caller's: a claim token
 * (a non-empty string the store gives back to {@link DedupeStore.release}), or `true` from a store that keeps
 * no token. `false` while someone else holds the id.
 */
export type DedupeClaim = string | boolean;

/**
 * Remembers which event ids are taken, so an event delivered more than once (delivery is at least once, and
 * the feed replays what webhooks already brought) is processed once. Implement it over any shared store;
 * `claim` must be atomic across every process that shares the store.
 *
 * A store should hand out a token with each claim and release only a claim that still holds it: a claim can
 * run out (its TTL) while its handler is still busy, another delivery then claims the id, and a blind
 * release by the first handler would delete the second one's claim. A store written before tokens (`claim`
 * resolving `true`, `release(eventId)`) still fits; its release stays blind.
 */
export interface DedupeStore {
  /**
   * Takes the event id for `ttlSeconds`. Resolves with a token (or `true`) only for the first claim of an id
   * that is not held; `false` while someone holds it.
   */
  claim(eventId: string, ttlSeconds: number): DedupeClaim | Promise<DedupeClaim>;
  /**
   * Gives the id back after processing failed, so the sender's retry is processed. With `token` (what
   * `claim` gave), only a claim still holding it is removed; without, whatever holds the id is.
   */
  release(eventId: string, token?: string): void | Promise<void>;
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
  readonly #claims = new Map<string, { readonly expiry: number; readonly token: string }>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  // Tokens only need to differ within this store: a counter does.
  #issued = 0;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isInteger(this.#maxEntries) || this.#maxEntries < 1) {
      throw new WebhookConfigurationError('maxEntries must be a whole number, 1 or more.');
    }
    this.#now = options.now ?? Date.now;
  }

  /** How many ids are held (expired ones may linger until the next claim sweeps them). */
  get size(): number {
    return this.#claims.size;
  }

  /** Takes the id for `ttlSeconds`: a token for {@link release}, or false while it is held. */
  async claim(eventId: string, ttlSeconds: number): Promise<string | false> {
    const now = this.#now();
    const held = this.#claims.get(eventId);
    if (held !== undefined && held.expiry > now) return false;
    // Delete first so the id moves to the end of the insertion order the eviction relies on.
    this.#claims.delete(eventId);
    const token = `claim_${++this.#issued}`;
    this.#claims.set(eventId, { expiry: now + ttlSeconds * 1000, token });
    this.#sweep(now);
    return token;
  }

  /** Gives the id back: only while `token` still holds it, or whatever holds it when no token is given. */
  async release(eventId: string, token?: string): Promise<void> {
    if (token === undefined || this.#claims.get(eventId)?.token === token) this.#claims.delete(eventId);
  }

  #sweep(now: number): void {
    // Oldest claims first; a few expired ones are dropped per claim, which keeps the cost flat.
    let checked = 0;
    for (const [id, { expiry }] of this.#claims) {
      const over = this.#claims.size > this.#maxEntries;
      if (!over && (expiry > now || checked >= 8)) break;
      this.#claims.delete(id);
      checked++;
    }
  }
}
