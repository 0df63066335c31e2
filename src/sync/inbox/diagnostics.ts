// The inbox's `shop-mgmt:inbox` diagnostics channel (read by shop-mgmt/otel), published only while subscribed.

import { lazyChannel } from '../../internal/diagnostics-channel.js';
import type { InboxSource } from './types.js';

/** The name of the inbox's diagnostics channel. */
export const INBOX_CHANNEL = 'shop-mgmt:inbox';

/** The inbox an inbox message is about: what a subscriber may ask for its oldest pending entry. */
export interface InboxDiagnosticsSource {
  list(status: 'pending', limit: number): Promise<readonly { readonly receivedAt: number }[]>;
}

/** One message on `shop-mgmt:inbox` (no event id, no body). */
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
      /** 1 for the first run. */
      readonly attempt: number;
      /** ms from the run's start to its outcome. */
      readonly durationMs: number;
    };

/** The inbox's channel, or null where the runtime has no `node:diagnostics_channel`. */
export const inboxDiagnostics = lazyChannel(INBOX_CHANNEL);

/** Publishes `message()` when someone listens; builds nothing otherwise. */
export function publishInbox(message: () => InboxDiagnosticsMessage): void {
  const channel = inboxDiagnostics();
  if (channel?.hasSubscribers) channel.publish(message());
}
