// What the sync engine tells a subscriber (shop-mgmt/otel) on the `node:diagnostics_channel` channel
// `shop-mgmt:sync`, published only while someone subscribes: each page a pass writes, and each event applied.
// Found through process.getBuiltinModule, as src/core/observe/tracing.ts finds its channels.

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

interface ChannelLike {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

let syncChannel: ChannelLike | null | undefined;

/** Publishes `message()` when someone listens on `shop-mgmt:sync`; builds nothing otherwise. */
export function publishSync(message: () => SyncDiagnosticsMessage): void {
  if (syncChannel === undefined) {
    syncChannel = null;
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    try {
      const module = proc?.getBuiltinModule?.('node:diagnostics_channel') as
        | { channel?: (name: string) => ChannelLike }
        | undefined;
      if (typeof module?.channel === 'function') syncChannel = module.channel(SYNC_CHANNEL);
    } catch {
      syncChannel = null;
    }
  }
  if (syncChannel?.hasSubscribers) syncChannel.publish(message());
}
