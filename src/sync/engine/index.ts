/**
 * The sync engine: the shop's records into SQLite or Postgres, tables generated from the spec.
 *
 * @module shop-mgmt/sync
 */
// Node only; better-sqlite3 and pg are optional peers loaded when a database of theirs is opened.
export { SYNC_EVENTS, SYNC_MIGRATIONS, SYNC_TABLES } from '../../generated/sync-schema.js';
export {
  type DeadLetterQuery,
  type FleetDeadLetter,
  type FleetReplayRequest,
  readDeadLetters,
  replayDeadLetters,
} from '../fleet/dead-letters.js';
export {
  FleetDeliveryDeadError,
  FleetPruneError,
  type FleetRetentionOptions,
  type FleetRetryOptions,
  type FleetShopChange,
  type FleetShopResult,
  ShopFleet,
  type ShopFleetOptions,
} from '../fleet/fleet.js';
export { readStatus, type ShopReason, type ShopState, type ShopStatus, unhealthy } from '../fleet/health.js';
export {
  LeaseLostError,
  type ShopLease,
  type ShopLeaseEvents,
  type ShopLeases,
  type SqlExecutorLike,
} from '../fleet/lease-contract.js';
export {
  type LeasePool,
  type LeaseTransaction,
  type PgTransactionLike,
  PostgresShopLeases,
  type PostgresShopLeasesOptions,
  type ShopLeasesOptions,
  type SqlSessionLike,
} from '../fleet/leases.js';
export { LocalShopLeases } from '../fleet/local-leases.js';
export {
  loadShops,
  type RegisteredShop,
  type ShopEntry,
  ShopRegistryError,
  type ShopRegistryFile,
  type ShopSource,
  writeShopsFile,
} from '../fleet/registry.js';
export type { SyncEvent } from './apply-event.js';
export { openSyncDatabase, type SqlExecutor, type SyncDatabase, SyncDatabaseError } from './database.js';
export type {
  SyncChildTable,
  SyncColumn,
  SyncColumnType,
  SyncEventRoute,
  SyncMigration,
  SyncTable,
} from './schema-types.js';
export {
  ShopSync,
  type ShopSyncClient,
  type ShopSyncOptions,
  type SyncEstimate,
  type SyncGap,
  type SyncPassResult,
  type SyncProgress,
} from './shop-sync.js';
export {
  type CopySource,
  migrate,
  type RejectedRecord,
  type StreamCheckpoint,
  SyncStore,
  type SyncStoreOptions,
} from './store.js';
