/**
 * Only verification: verify a delivery, its errors and the event types, without handlers or dedupe stores.
 *
 * @module shop-mgmt/webhooks/verify
 */
// `shop-mgmt/webhooks/verify`: only what a receiver that verifies needs (verify, the errors, the event types),
// without the request handlers, dedupe stores and router of `shop-mgmt/webhooks`. For receivers that count their
// bytes and cold-start time (edge functions); everything here is also exported by `shop-mgmt/webhooks`.

export { isShopError, ShopError } from '../core/errors/shop-error.js';
export {
  isWebhookVerificationError,
  WebhookConfigurationError,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './errors.js';
export type {
  EventPayloadMap,
  EventType,
  KnownShopEvent,
  ShopEvent,
  ShopEventEnvelope,
  ShopEventOf,
  UnknownShopEvent,
} from './events.js';
export type { WebhookHeaders } from './headers.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookSignature,
} from './verify.js';
