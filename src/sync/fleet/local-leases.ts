// Leases for one process: every shop is this worker's. The default of a fleet on SQLite, or of a fleet
// that is the only worker on its Postgres database.
import type { ShopLease, ShopLeaseEvents, ShopLeases, SqlExecutorLike } from './lease-contract.js';
import { LeaseLostError } from './lease-contract.js';

/** Holds every shop it is started with, at once, until stopped. */
export class LocalShopLeases implements ShopLeases {
  readonly #held = new Map<string, ShopLease>();
  readonly #events: ShopLeaseEvents;
  readonly holder: string;

  constructor(options: ShopLeaseEvents & { readonly holder?: string } = {}) {
    this.#events = options;
    this.holder = options.holder ?? `local:${process.pid}`;
  }

  async start(shops: readonly string[]): Promise<void> {
    for (const shop of shops) {
      if (this.#held.has(shop)) continue;
      const lease = { shop, token: 1, holder: this.holder };
      this.#held.set(shop, lease);
      this.#events.onAcquired?.(lease);
    }
  }

  held(): ReadonlyMap<string, ShopLease> {
    return this.#held;
  }

  async check(_tx: SqlExecutorLike, lease: ShopLease): Promise<void> {
    if (this.#held.get(lease.shop)?.token !== lease.token) throw new LeaseLostError(lease.shop);
  }

  /** Gives up one shop (as a lost lease: the fleet stops it). */
  release(shop: string, reason = 'released'): void {
    if (!this.#held.delete(shop)) return;
    this.#events.onLost?.(shop, reason);
  }

  async stop(): Promise<void> {
    for (const shop of [...this.#held.keys()]) this.release(shop, 'stopped');
  }
}
