/**
 * Only verification: verify a delivery, its errors and the event types, without handlers or dedupe stores.
 *
 * @module shop-mgmt/webhooks/verify
 */
// For edge receivers that count bytes: everything here is also in `shop-mgmt/webhooks`.

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
