// Each verification's outcome on the `shop-mgmt:webhooks` diagnostics channel, published only while subscribed.
import { isWebhookVerificationError, type WebhookVerificationReason } from './errors.js';

/** The name of the webhooks' diagnostics channel. */
export const WEBHOOK_CHANNEL = 'shop-mgmt:webhooks';

/** One message on `shop-mgmt:webhooks`: a verification's outcome (no header, body, secret or id). */
export interface WebhookDiagnosticsMessage {
  readonly type: 'verified';
  readonly outcome: 'ok' | WebhookVerificationReason | 'error';
}

interface ChannelLike {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

let webhookChannel: ChannelLike | null | undefined;

function channel(): ChannelLike | null {
  if (webhookChannel !== undefined) return webhookChannel;
  webhookChannel = null;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const module = proc?.getBuiltinModule?.('node:diagnostics_channel') as
      | { channel?: (name: string) => ChannelLike }
      | undefined;
    if (typeof module?.channel === 'function') webhookChannel = module.channel(WEBHOOK_CHANNEL);
  } catch {
    webhookChannel = null;
  }
  return webhookChannel;
}

// The messages are a handful of constants: publishing one allocates nothing.
const messages = new Map<WebhookDiagnosticsMessage['outcome'], WebhookDiagnosticsMessage>();
function message(outcome: WebhookDiagnosticsMessage['outcome']): WebhookDiagnosticsMessage {
  let found = messages.get(outcome);
  if (!found) {
    found = Object.freeze({ type: 'verified', outcome });
    messages.set(outcome, found);
  }
  return found;
}

/** `result` as it is; when someone listens, its outcome is published once it settles. */
export function observeVerification<T>(result: Promise<T>): Promise<T> {
  const subscribed = channel();
  if (subscribed?.hasSubscribers) {
    result.then(
      () => subscribed.publish(message('ok')),
      (error: unknown) =>
        subscribed.publish(message(isWebhookVerificationError(error) ? error.reason : 'error')),
    );
  }
  return result;
}
