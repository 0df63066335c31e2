// Each verification's outcome on `shop-mgmt:webhooks`, while someone subscribes.
import { lazyChannel } from '../internal/diagnostics-channel.js';
import { isWebhookVerificationError, type WebhookVerificationReason } from './errors.js';

/** The name of the webhooks' diagnostics channel. */
export const WEBHOOK_CHANNEL = 'shop-mgmt:webhooks';

/** A verification's outcome (no header, body, secret or id). */
export interface WebhookDiagnosticsMessage {
  readonly type: 'verified';
  readonly outcome: 'ok' | WebhookVerificationReason | 'error';
}

const channel = lazyChannel(WEBHOOK_CHANNEL);

// A handful of constant messages: publishing allocates nothing.
const messages = new Map<WebhookDiagnosticsMessage['outcome'], WebhookDiagnosticsMessage>();
function message(outcome: WebhookDiagnosticsMessage['outcome']): WebhookDiagnosticsMessage {
  let found = messages.get(outcome);
  if (!found) {
    found = Object.freeze({ type: 'verified', outcome });
    messages.set(outcome, found);
  }
  return found;
}

/** `result`; its outcome is published once it settles, when someone listens. */
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
