// What decides which worker syncs which shop: LocalShopLeases (all held) or Postgres leases with fencing.
import { ERROR_CLASS, ShopError } from '../../core/errors/shop-error.js';

/** Statements inside the write transaction a lease is checked in (the sync engine's `SqlExecutor`). */
export interface SqlExecutorLike {
  /** Runs a query. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** One shop held by this worker: `token` grows with each new holder (the fencing token). */
export interface ShopLease {
  readonly shop: string;
  readonly token: number;
  readonly holder: string;
  /** Given up by a live holder (not expired): the fleet keeps the shop's pace. */
  readonly handedOver?: boolean;
}

/** Told when this worker gains or loses a shop. */
export interface ShopLeaseEvents {
  /** This worker now holds `lease`: the fleet starts syncing its shop. */
  onAcquired?(lease: ShopLease): void;
  /** This worker no longer holds `shop`: its writes stop. A shop given up is released once a returned promise settles. */
  onLost?(shop: string, reason: string): unknown;
}

/** Who syncs which shop. */
export interface ShopLeases {
  /** This worker's name, as leases and health lines show it. */
  readonly holder?: string;
  /** Starts taking (and keeping) leases on `shops`; `onAcquired` is told of each one held. */
  start(shops: readonly string[]): Promise<void>;
  /** The leases held now, by shop. */
  held(): ReadonlyMap<string, ShopLease>;
  /** Whether `lease` is still current, read inside `tx` without locking it (unset: always). */
  holds?(tx: SqlExecutorLike, lease: ShopLease): Promise<boolean>;
  /** Inside a write transaction: throws {@link LeaseLostError} when `lease`'s token is no longer current. */
  check(tx: SqlExecutorLike, lease: ShopLease): Promise<void>;
  /** Gives every lease up. */
  stop(): Promise<void>;
}

/** A write refused because this worker's lease on the shop is no longer current (another worker took it). */
export class LeaseLostError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'LeaseLostError';
  override readonly name: string = 'LeaseLostError';
  constructor(
    readonly shop: string,
    message = `the lease on shop ${shop} is no longer this worker's: the write was refused`,
  ) {
    super(message);
  }
}
