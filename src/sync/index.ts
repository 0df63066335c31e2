// Keeping a local copy in step with the API: the event-feed catch-up and the inventory mirror (reference
// section 6). Exported from `shop-mgmt`.
export {
  type CatchUpPoller,
  type CatchUpResult,
  EventCatchUp,
  type EventCatchUpOptions,
  type EventFeedSource,
} from './catch-up.js';
export type { FeedEvent } from './catch-up-state.js';
export {
  type Checkpoint,
  type CheckpointStore,
  type HeldClaim,
  MemoryCheckpointStore,
} from './checkpoint.js';
export {
  type ApplyOutcome,
  InventoryMirror,
  type InventorySource,
  type InventoryStore,
  MemoryInventoryStore,
  type MirroredLevel,
  type ReconcilePollOptions,
  type ReconcileResult,
} from './inventory-mirror.js';
export type { Poller, PollOptions } from './poll.js';
