// What the inbox tells a subscriber (shop-mgmt/otel): each event written, and each run's outcome, on the
// `node:diagnostics_channel` channel `shop-mgmt:inbox`, published only while someone subscribes. Found through
// process.getBuiltinModule, as src/core/observe/tracing.ts finds its channels, so a runtime without the module
// publishes nothing.
import type { InboxSource } from './types.js';

/** The name of the inbox's diagnostics channel. */
export const INBOX_CHANNEL = 'shop-mgmt:inbox';

/** The inbox an inbox message is about: what a subscriber may ask for its oldest pending entry. */
export interface InboxDiagnosticsSource {
  list(status: 'pending', limit: number): Promise<readonly { readonly receivedAt: number }[]>;
}

/**
 * One message on `shop-mgmt:inbox`: `added` / `duplicate` when an event is written (or was there already),
 * `replayed` when one is made pending again, `settled` when a run ends (`done`, `retry` for a failure to be
 * tried again, `dead` for a dead letter, `lost` when the lease was gone). No event id, no body.
 */
export type InboxDiagnosticsMessage =
  | {
      readonly type: 'added' | 'duplicate';
      readonly inbox: InboxDiagnosticsSource;
      readonly source: InboxSource;
    }
  | { readonly type: 'replayed'; readonly inbox: InboxDiagnosticsSource }
  | {
      readonly type: 'settled';
      readonly inbox: InboxDiagnosticsSource;
      readonly outcome: 'done' | 'retry' | 'dead' | 'lost';
      /** The run's number, 1 for the first. */
      readonly attempt: number;
      /** Milliseconds from the run's start to its outcome. */
      readonly durationMs: number;
    };

interface ChannelLike {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

let inboxChannel: ChannelLike | null | undefined;

/** The inbox's channel, or null where the runtime has no `node:diagnostics_channel`. */
export function inboxDiagnostics(): ChannelLike | null {
  if (inboxChannel !== undefined) return inboxChannel;
  inboxChannel = null;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const module = proc?.getBuiltinModule?.('node:diagnostics_channel') as
      | { channel?: (name: string) => ChannelLike }
      | undefined;
    if (typeof module?.channel === 'function') inboxChannel = module.channel(INBOX_CHANNEL);
  } catch {
    inboxChannel = null;
  }
  return inboxChannel;
}

/** Publishes `message()` when someone listens; builds nothing otherwise. */
export function publishInbox(message: () => InboxDiagnosticsMessage): void {
  const channel = inboxDiagnostics();
  if (channel?.hasSubscribers) channel.publish(message());
}
