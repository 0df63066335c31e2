import { WebhookConfigurationError } from './errors.js';

/** A claim: a token (or `true`) when the id is now the caller's; `false` while held. */
export type DedupeClaim = string | boolean;

/** Remembers event ids in progress and done; every call atomic across the processes sharing it. */
export interface DedupeStore {
  /** Takes the id; `false` while someone holds it. */
  claim(eventId: string, leaseSeconds: number): DedupeClaim | Promise<DedupeClaim>;
  /** Extends the lease; false once it was lost. */
  renew?(eventId: string, token: string, leaseSeconds: number): boolean | Promise<boolean>;
  /** Marks the id done after its handler succeeded. */
  complete?(eventId: string, token: string, ttlSeconds: number): void | Promise<void>;
  /** True when the id is done (not merely in progress). */
  isDone?(eventId: string): boolean | Promise<boolean>;
  /** Gives the id back after a failure. */
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

/** Seconds an id stays done: 3 days, past the API's 37 hours of retries. */
export const DEFAULT_DEDUPE_TTL_SECONDS = 3 * 24 * 60 * 60;

/** Seconds an event is held in progress by default, renewed every third. */
export const DEFAULT_LEASE_SECONDS = 30;

/** Default ms for one store call before the delivery gets a 503. */
export const DEFAULT_STORE_TIMEOUT_MS = 500;

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /** The oldest go first. @default 100_000 */
  maxEntries?: number;
  /** For tests. @default Date.now */
  now?: () => number;
}

/** A {@link DedupeStore} in memory for one process; a restart forgets it (duplicates, never a loss). */
export class MemoryDedupeStore implements DedupeStore {
  readonly #claims = new Map<string, { expiry: number; readonly token: string; done: boolean }>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  #issued = 0;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isInteger(this.#maxEntries) || this.#maxEntries < 1) {
      throw new WebhookConfigurationError('maxEntries must be a whole number, 1 or more.');
    }
    this.#now = options.now ?? Date.now;
  }

  /** Ids held, expired ones included until swept. */
  get size(): number {
    return this.#claims.size;
  }

  async claim(eventId: string, leaseSeconds: number): Promise<string | false> {
    const now = this.#now();
    const held = this.#claims.get(eventId);
    if (held !== undefined && held.expiry > now) return false;
    // Delete first: eviction relies on insertion order.
    this.#claims.delete(eventId);
    const token = `claim_${++this.#issued}`;
    this.#claims.set(eventId, { expiry: now + leaseSeconds * 1000, token, done: false });
    this.#sweep(now);
    return token;
  }

  async renew(eventId: string, token: string, leaseSeconds: number): Promise<boolean> {
    const now = this.#now();
    const held = this.#claims.get(eventId);
    if (held === undefined || held.token !== token || held.done || held.expiry <= now) return false;
    held.expiry = now + leaseSeconds * 1000;
    return true;
  }

  async complete(eventId: string, _token: string, ttlSeconds: number): Promise<void> {
    this.#claims.delete(eventId);
    this.#claims.set(eventId, { expiry: this.#now() + ttlSeconds * 1000, token: '', done: true });
  }

  async isDone(eventId: string): Promise<boolean> {
    const held = this.#claims.get(eventId);
    return held?.done === true && held.expiry > this.#now();
  }

  async release(eventId: string, token?: string): Promise<void> {
    const held = this.#claims.get(eventId);
    if (token === undefined || (held?.token === token && !held.done)) this.#claims.delete(eventId);
  }

  #sweep(now: number): void {
    // A few expired ones per claim keeps the cost flat.
    let checked = 0;
    for (const [id, { expiry }] of this.#claims) {
      const over = this.#claims.size > this.#maxEntries;
      if (!over && (expiry > now || checked >= 8)) break;
      this.#claims.delete(id);
      checked++;
    }
  }
}
