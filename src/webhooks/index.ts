// `shop-sdk/webhooks`: verify, type and dedupe signed deliveries. It loads neither the HTTP client nor zod, so
// a receiver that only verifies stays small and starts fast; everything here runs on Node, Bun, Deno and
// Workers.

export { isShopError, ShopError } from '../core/errors/shop-error.js';
export { EVENT_TYPES } from './catalog.js';
export {
  DEFAULT_DEDUPE_TTL_SECONDS,
  type DedupeClaim,
  type DedupeStore,
  MemoryDedupeStore,
  type MemoryDedupeStoreOptions,
} from './dedupe.js';
export {
  isWebhookVerificationError,
  WebhookConfigurationError,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './errors.js';
export {
  type EventPayloadMap,
  type EventType,
  isKnownEventType,
  type KnownShopEvent,
  type ShopEvent,
  type ShopEventEnvelope,
  type ShopEventOf,
  type UnknownEventType,
  type UnknownShopEvent,
} from './events.js';
export {
  createWebhookHandler,
  DEFAULT_MAX_BODY_BYTES,
  type WebhookErrorInfo,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from './handler.js';
export { readDeliveryHeaders, type WebhookDelivery, type WebhookHeaders } from './headers.js';
export type { NodeIncomingMessage, NodeRequestHandler, NodeServerResponse } from './node.js';
export type { WebhookDeliveryInput, WebhookOutcome, WebhookResult } from './results.js';
export { type EventContext, type EventHandler, EventRouter } from './router.js';
export { type SignPayloadOptions, signPayload } from './sign.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookSignature,
} from './verify.js';
