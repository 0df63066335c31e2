/**
 * A stateful simulator of the Shop Management API for partners' tests, served as msw handlers, as a real
 * HTTP server on loopback, or as an in-process fetch.
 *
 * @module shop-mgmt/testing
 */

export type { ClockMode, SandboxClock } from './clock.js';
export { parseDuration } from './clock.js';
export { SandboxApiError, SandboxUsageError } from './errors.js';
export type { DeliveryAttempt, PendingDelivery } from './events/delivery.js';
export type { WebhookEndpointOptions } from './events/endpoints.js';
export type { SandboxWebhookEndpoint, SandboxWebhooks } from './events/webhooks.js';
export type {
  BuildEventOptions,
  Overrides,
  RecordKind,
  RecordOf,
  SignedDelivery,
  SignedDeliveryOptions,
} from './factories/index.js';
export { buildEvent, buildRecord, RECORD_SCHEMAS, signedDelivery } from './factories/index.js';
export type { CloseVisitOptions, VisitRentalReturn } from './features/range/register.js';
export type { ReturnSaleOptions } from './features/returns/returns.js';
export type { SellLine, SellOptions } from './features/sales/register.js';
export type { CustomerChanges, NewCustomer } from './features/shop/customers.js';
export type { FaultOptions, SandboxFaults } from './http/faults.js';
export type { CreateKeyOptions, Permission, RollKeyOptions } from './http/keys.js';
export { CLIENT_IP_HEADER } from './http/pipeline.js';
export type { SandboxHandlers } from './msw.js';
export type {
  SandboxEnvironment,
  SandboxOptions,
  SandboxPlan,
  SandboxRateLimits,
  SandboxRecords,
  SandboxSubscription,
} from './options.js';
export type { NewInvoice, NewLocation, NewProduct } from './register/back-office.js';
export type { SandboxRegister } from './register/index.js';
export type { SandboxOwner } from './register/owner.js';
export { createSandbox, Sandbox } from './sandbox.js';
export type { ListenOptions, SandboxServer } from './server.js';
export type { SandboxShop, SandboxShopOptions, ShopsSandboxOptions } from './shops.js';
export { createShopsSandbox, type ShopsListenOptions, ShopsSandbox } from './shops.js';
export type { SandboxSnapshot, SnapshotOptions } from './snapshot.js';
export { restoreSandbox, SNAPSHOT_VERSION, sandboxSnapshot } from './snapshot.js';
export type { SentEmail } from './state/shop.js';
export type { TriggerResult } from './triggers.js';
export type { WalkerCount } from './walkers.js';
