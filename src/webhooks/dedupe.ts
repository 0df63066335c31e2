import { WebhookConfigurationError } from './errors.js';

/**
 * What {@link DedupeStore.claim} resolves with. Truthy when the id is now this caller's: a claim token
 * (a non-empty string the store gives back to `renew`, `complete` and `release`), or `true` from a store that
 * keeps no token. `false` while someone else holds the id (in progress, or done).
 */
export type DedupeClaim = string | boolean;

/**
 * Remembers which event ids are in progress and which are done, so an event delivered more than once
 * (delivery is at least once, and the feed replays what webhooks already brought) is processed once, and
 * an event whose handler died is processed again. Implement it over any shared store; every call must be
 * atomic across every process that shares the store.
 *
 * The contract (a *lease* store, one with `complete`):
 * - `claim(id, leaseSeconds)`: takes the id *in progress* for a short lease (30 s by default), only when
 *   nobody holds it; resolves with a fresh token, `false` while it is held (in progress or done).
 * - `renew(id, token, leaseSeconds)`: the running handler's heartbeat (every third of the lease); extends the
 *   lease while `token` still holds it; false once it was lost.
 * - `complete(id, token, ttlSeconds)`: the handler succeeded: the id is *done* for the long TTL (3 days, past
 *   the 37 h of retries), whoever held it. Only ever called after success.
 * - `release(id, token)`: the handler failed: frees the id only while `token` still holds it. A release that
 *   fails (the store is unreachable) is harmless: the lease runs out and the id is free again.
 * - `isDone(id)`: true once `complete` ran for the id (and its TTL has not passed), false while it is free or
 *   in progress; the feed catch-up and the webhook handler ask it when a claim is refused.
 * A lease that runs out (the process died mid-handler: SIGKILL, OOM, a deploy) makes the event free again,
 * so the sender's retry, a resend from the delivery log and the catch-up all process it.
 *
 * A store written before leases (`claim` and `release` only) still fits: its claim is taken for the long
 * TTL and means both "in progress" and "done", so an event whose handler died stays claimed until the TTL
 * passes (see docs/webhooks.md, "Which setup loses what").
 */
export interface DedupeStore {
  /**
   * Takes the event id for `leaseSeconds` (for a store without `complete`: the long TTL). Resolves with a
   * token (or `true`) only when nobody holds the id; `false` while someone does.
   */
  claim(eventId: string, leaseSeconds: number): DedupeClaim | Promise<DedupeClaim>;
  /** Extends the lease while `token` still holds it; false once it was lost. */
  renew?(eventId: string, token: string, leaseSeconds: number): boolean | Promise<boolean>;
  /** Marks the id done for `ttlSeconds`, after its handler succeeded. */
  complete?(eventId: string, token: string, ttlSeconds: number): void | Promise<void>;
  /** True when the id is done (not merely in progress). */
  isDone?(eventId: string): boolean | Promise<boolean>;
  /**
   * Gives the id back after processing failed, so the sender's retry is processed. With `token` (what
   * `claim` gave), only a claim still holding it is removed; without, whatever holds the id is.
   */
  release(eventId: string, token?: string): void | Promise<void>;
}

/** True for a store that keeps "in progress" (a lease) apart from "done". */
export function hasLeases(
  store: DedupeStore,
): store is DedupeStore & Required<Pick<DedupeStore, 'renew' | 'complete' | 'isDone'>> {
  return (
    typeof store.complete === 'function' &&
    typeof store.renew === 'function' &&
    typeof store.isDone === 'function'
  );
}

/**
 * How long an event id stays done by default: 3 days. The API retries a failed delivery 9 times over
 * about 37 hours (reference section 6), so the latest retry still finds it done.
 */
export const DEFAULT_DEDUPE_TTL_SECONDS = 3 * 24 * 60 * 60;

/**
 * How long an event is held *in progress* by default, in seconds: the running handler renews it every
 * third of it; a process that dies frees the event this long after its last renewal.
 */
export const DEFAULT_LEASE_SECONDS = 30;

/** How long one dedupe or inbox store call may take by default, in ms, before the delivery gets a 503. */
export const DEFAULT_STORE_TIMEOUT_MS = 500;

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
 * A {@link DedupeStore} in this process's memory, with leases: right for a receiver running as one process.
 * It forgets everything when the process ends: after a restart, retries and the feed catch-up process again
 * events already processed (duplicates, never a loss). Behind a load balancer, with several workers, or to
 * survive restarts without duplicates, use a shared store (`RedisDedupeStore`) or the inbox
 * (`shop-mgmt/inbox`).
 */
export class MemoryDedupeStore implements DedupeStore {
  readonly #claims = new Map<string, { expiry: number; readonly token: string; done: boolean }>();
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

  /** Takes the id in progress for `leaseSeconds`: a token, or false while it is held (in progress or done). */
  async claim(eventId: string, leaseSeconds: number): Promise<string | false> {
    const now = this.#now();
    const held = this.#claims.get(eventId);
    if (held !== undefined && held.expiry > now) return false;
    // Delete first so the id moves to the end of the insertion order the eviction relies on.
    this.#claims.delete(eventId);
    const token = `claim_${++this.#issued}`;
    this.#claims.set(eventId, { expiry: now + leaseSeconds * 1000, token, done: false });
    this.#sweep(now);
    return token;
  }

  /** Extends the lease while `token` holds it (and the id is not done). */
  async renew(eventId: string, token: string, leaseSeconds: number): Promise<boolean> {
    const now = this.#now();
    const held = this.#claims.get(eventId);
    if (held === undefined || held.token !== token || held.done || held.expiry <= now) return false;
    held.expiry = now + leaseSeconds * 1000;
    return true;
  }

  /** Marks the id done for `ttlSeconds`. */
  async complete(eventId: string, _token: string, ttlSeconds: number): Promise<void> {
    this.#claims.delete(eventId);
    this.#claims.set(eventId, { expiry: this.#now() + ttlSeconds * 1000, token: '', done: true });
  }

  /** True when the id is done and its TTL has not passed. */
  async isDone(eventId: string): Promise<boolean> {
    const held = this.#claims.get(eventId);
    return held?.done === true && held.expiry > this.#now();
  }

  /** Gives the id back: only while `token` still holds it, or whatever holds it when no token is given. */
  async release(eventId: string, token?: string): Promise<void> {
    const held = this.#claims.get(eventId);
    if (token === undefined || (held?.token === token && !held.done)) this.#claims.delete(eventId);
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
