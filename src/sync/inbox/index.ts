/**
 * The durable event inbox: write each verified event down before answering, process it under a lease.
 *
 * @module shop-mgmt/inbox
 */
// `shop-mgmt/inbox`: the Inbox, its worker and the memory store. The SQLite, Postgres, Redis and D1 adapters
// are entries of their own (`shop-mgmt/inbox/sqlite`, `/postgres`, `/redis`, `/d1`), so their drivers load
// only there.
export {
  Inbox,
  type InboxAddOutcome,
  type InboxKeyedEvent,
  type InboxOptions,
  type InboxRetention,
  type InboxRunResult,
  type InboxWorker,
  type InboxWorkerOptions,
} from './inbox.js';
export { MemoryInboxStore } from './memory.js';
export type {
  InboxEntry,
  InboxFailure,
  InboxHandler,
  InboxHandlerContext,
  InboxLease,
  InboxRecord,
  InboxSource,
  InboxStatus,
  InboxStore,
  InboxTransaction,
  LeaseRequest,
  PruneRequest,
} from './types.js';
