/**
 * Verify, type and dedupe signed webhook deliveries; request handlers for web and Node servers.
 *
 * @module shop-mgmt/webhooks
 */
// Loads neither the HTTP client nor zod, so a receiver stays small; runs on Node, Bun, Deno and Workers.

export {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_LEASE_SECONDS,
  DEFAULT_STORE_TIMEOUT_MS,
  type DedupeClaim,
  type DedupeStore,
  MemoryDedupeStore,
  type MemoryDedupeStoreOptions,
} from './dedupe.js';
export { EVENT_TYPES } from './event-types.js';
export { isKnownEventType, type UnknownEventType } from './events.js';
export {
  createWebhookHandler,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from './handler.js';
export { readDeliveryHeaders, type WebhookDelivery } from './headers.js';
export type { NodeIncomingMessage, NodeRequestHandler, NodeServerResponse } from './node.js';
export type { WebhookInbox } from './receive.js';
export type { WebhookRequest } from './request.js';
export { DEFAULT_RESPOND_WITHIN_MS, type WaitUntil } from './respond-within.js';
export type { WebhookDeliveryInput, WebhookErrorInfo, WebhookOutcome, WebhookResult } from './results.js';
export { type EventContext, type EventHandler, EventRouter } from './router.js';
export {
  type WebhookSecret,
  WebhookSecretError,
  type WebhookSecretErrorReason,
  type WebhookSecretResolver,
} from './secrets.js';
export { type SignPayloadOptions, signPayload } from './sign.js';
export * from './verify-only.js';
