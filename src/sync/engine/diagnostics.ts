// The engine's `shop-mgmt:sync` channel (read by shop-mgmt/otel): each page written and each event applied.
import { lazyChannel } from '../../internal/diagnostics-channel.js';

/** The name of the sync engine's diagnostics channel. */
export const SYNC_CHANNEL = 'shop-mgmt:sync';

/**
 * One message on `shop-mgmt:sync`: `page` after each page a backfill, repair or feed pass commits (`done` on
 * its last page: an `events` pass done means the shop is caught up with the feed), `event` after one event
 * (webhook or inbox) is applied, with the event's `created_at`. `shop` is the engine's `shop` label.
 */
export type SyncDiagnosticsMessage =
  | {
      readonly type: 'page';
      readonly shop: string;
      readonly stream: string;
      readonly phase: 'backfill' | 'repair' | 'events';
      /** Rows this page wrote. */
      readonly written: number;
      readonly done: boolean;
    }
  | { readonly type: 'event'; readonly shop: string; readonly written: number; readonly createdAt: string };

const syncChannel = lazyChannel(SYNC_CHANNEL);

/** Publishes `message()` when someone listens on `shop-mgmt:sync`; builds nothing otherwise. */
export function publishSync(message: () => SyncDiagnosticsMessage): void {
  const channel = syncChannel();
  if (channel?.hasSubscribers) channel.publish(message());
}
