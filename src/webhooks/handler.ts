import { readCapped, stop, TOO_LARGE, TOO_SLOW } from './body-reader.js';
import {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_LEASE_SECONDS,
  DEFAULT_STORE_TIMEOUT_MS,
  type DedupeStore,
  MemoryDedupeStore,
} from './dedupe.js';
import { requireOptions, WebhookConfigurationError, WebhookVerificationError } from './errors.js';
import type { EventType, ShopEvent, ShopEventOf, UnknownShopEvent } from './events.js';
import { type NodeRequestHandler, nodeHandler } from './node.js';
import { deliveryReceiver, type WebhookInbox } from './receive.js';
import { fromWebRequest, type WebhookRequest } from './request.js';
import {
  type CallScope,
  DEFAULT_RESPOND_WITHIN_MS,
  type WaitUntil,
  waitUntilAmong,
} from './respond-within.js';
import {
  bodyTimedOut,
  type DeliveryReceiver,
  refuseBeforeReading,
  responseHeaders,
  tooLarge,
  unreadable,
  type WebhookDeliveryInput,
  type WebhookErrorInfo,
  type WebhookResult,
} from './results.js';
import { type EventHandler, EventRouter } from './router.js';
import { settingsSource, type WebhookSecret, type WebhookSecretResolver } from './secrets.js';
import { nowSeconds } from './verify.js';

/** Default largest body read, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1 << 20;

/** Default ms a sender has to send the body. */
export const DEFAULT_BODY_TIMEOUT_MS = 5000;

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The signing secret(s), or a resolver per delivery (nothing: 404, a throw: 503). */
  secret: WebhookSecret | WebhookSecretResolver;
  /** The key an event is claimed under. @default the event id */
  dedupeKey?: (event: ShopEvent, request: WebhookRequest) => string | Promise<string>;
  /** Where ids in progress and done are kept; `false` for none. @default a {@link MemoryDedupeStore} */
  dedupe?: DedupeStore | false;
  /** Seconds a processed id is remembered. @default 259200 */
  dedupeTtlSeconds?: number;
  /** Seconds an event is held in progress, renewed while it runs. @default 30 */
  leaseSeconds?: number;
  /** ms a store or inbox call may take before a 503. @default 500 */
  storeTimeoutMs?: number;
  /** A durable inbox each verified event is written to before the 200; handlers and `dedupe` then unused. */
  inbox?: WebhookInbox;
  /** Called once per event id; a throw answers 500. */
  onEvent?: EventHandler;
  /** Seconds of clock tolerance. @default 300 */
  toleranceSeconds?: number;
  /** The receiver's clock. @default the current time */
  now?: (() => Date | number) | Date | number;
  /** Bigger is answered 413. @default 1048576 */
  maxBodyBytes?: number;
  /** ms the sender has to send the body (then 408). @default 5000 */
  bodyTimeoutMs?: number;
  /** ms to wait on the handlers before answering 202 while they go on; `false`: no bound. @default 8000 */
  respondWithin?: number | false;
  /** Keeps the platform running for handlers answered 202 (Vercel's `waitUntil`). */
  waitUntil?: WaitUntil;
  /** Told of every refused or failed delivery; never holds a secret. */
  onError?: (error: unknown, info: WebhookErrorInfo) => void;
}

/** A web-standard handler (`(Request) => Promise<Response>`) with a typed registry and adapters. */
export interface WebhookHandler {
  (request: Request, ...platform: unknown[]): Promise<Response>;
  /** Adds a handler for one event type, called after `onEvent`. */
  on<T extends EventType>(type: T, handler: EventHandler<ShopEventOf<T>>): WebhookHandler;
  /** Adds the fallback for event types this SDK does not know. */
  onUnknown(handler: EventHandler<UnknownShopEvent>): WebhookHandler;
  /** Handles a raw delivery. */
  handle(input: WebhookDeliveryInput): Promise<WebhookResult>;
  /** For Node's `http` and Express. */
  node: NodeRequestHandler;
}

/**
 * Creates a webhook endpoint: verifies, claims the event id, runs the handlers once per id, and answers so
 * the sender retries exactly what was not processed.
 * @throws {WebhookConfigurationError} when the secret is empty or an option is out of range.
 * @example
 * export const POST = createWebhookHandler({ secret: process.env.SHOP_WEBHOOK_SECRET! })
 *   .on('inventory.changed', (event) => mirror.applyEvent(event));
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  requireOptions('createWebhookHandler', 'secret, onEvent', options);
  const settingsFor = settingsSource(options.secret, options.toleranceSeconds);
  if (options.dedupeKey !== undefined && typeof options.dedupeKey !== 'function') {
    throw new WebhookConfigurationError('dedupeKey must be a function (event, request) => string.');
  }
  const clock = receiverClock(options.now);
  const ttl = wholeNumber('dedupeTtlSeconds', options.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS);
  const maxBodyBytes = wholeNumber('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const body = {
    maxBytes: maxBodyBytes,
    timeoutMs: wholeNumber('bodyTimeoutMs', options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS),
  };
  const leaseSeconds = wholeNumber('leaseSeconds', options.leaseSeconds ?? DEFAULT_LEASE_SECONDS);
  const storeTimeoutMs = wholeNumber('storeTimeoutMs', options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS);
  const inbox = options.inbox ?? null;
  if (inbox !== null && typeof inbox.add !== 'function') {
    throw new WebhookConfigurationError('inbox must be an Inbox of shop-mgmt/inbox (one with add).');
  }
  if (inbox !== null && (options.onEvent !== undefined || options.dedupe !== undefined)) {
    throw new WebhookConfigurationError(
      'With an inbox, events are processed by the inbox worker (inbox.work(handler)): drop onEvent and dedupe.',
    );
  }
  const dedupe =
    options.dedupe === false || inbox !== null ? null : (options.dedupe ?? new MemoryDedupeStore());
  const respondWithin =
    options.respondWithin === false
      ? false
      : wholeNumber('respondWithin', options.respondWithin ?? DEFAULT_RESPOND_WITHIN_MS);
  if (options.waitUntil !== undefined && typeof options.waitUntil !== 'function') {
    throw new WebhookConfigurationError('waitUntil must be a function (promise) => void.');
  }
  const router = new EventRouter();
  const receiver = deliveryReceiver({
    settingsFor,
    dedupeKey: options.dedupeKey,
    respondWithin,
    waitUntil: options.waitUntil,
    clock,
    dedupe,
    ttl,
    leaseSeconds,
    storeTimeoutMs,
    inbox,
    router,
    onEvent: options.onEvent,
    onError: options.onError,
    secrets: fixedSecrets(options.secret),
  });

  const handler = (async (request: Request, ...platform: unknown[]): Promise<Response> => {
    const scope = { startedAt: Date.now(), waitUntil: waitUntilAmong(platform) };
    let result: WebhookResult;
    try {
      result = await readRequest(request, body, receiver, scope);
    } catch (error) {
      // Not a Request: a 500 the sender retries once the code is fixed.
      result = receiver.fail(error, (request as Partial<Request> | undefined)?.headers);
    }
    return new Response(result.body, { status: result.status, headers: responseHeaders(result.status) });
  }) as WebhookHandler;
  handler.on = (type, fn) => {
    router.on(type, fn);
    return handler;
  };
  handler.onUnknown = (fn) => {
    router.onUnknown(fn);
    return handler;
  };
  handler.handle = (input) =>
    receiver.process(input, undefined, {
      startedAt: Date.now(),
      waitUntil: typeof input?.waitUntil === 'function' ? input.waitUntil : undefined,
    });
  handler.node = nodeHandler(receiver, body);
  return handler;
}

/** The fixed secrets, cut out of what `onError` is told. */
function fixedSecrets(secret: WebhookHandlerOptions['secret']): readonly string[] {
  if (typeof secret === 'string') return [secret];
  return Array.isArray(secret) ? secret.filter((one): one is string => typeof one === 'string') : [];
}

/** Unix seconds now, by `now`. */
function receiverClock(now: WebhookHandlerOptions['now']): () => number {
  if (typeof now === 'function') return () => nowSeconds(now());
  if (now === undefined) return () => nowSeconds(undefined);
  const fixed = nowSeconds(now);
  return () => fixed;
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new WebhookConfigurationError(`${name} must be a whole number, 1 or more.`);
  return value;
}

async function readRequest(
  request: Request,
  { maxBytes: maxBodyBytes, timeoutMs }: { maxBytes: number; timeoutMs: number },
  receiver: DeliveryReceiver,
  scope: CallScope,
): Promise<WebhookResult> {
  if (typeof request?.headers?.get !== 'function') {
    throw new WebhookConfigurationError(
      "The handler takes a fetch Request; for Node's req and res use webhooks.node(req, res).",
    );
  }
  const refused = refuseBeforeReading(request.method, request.headers.get('content-length'), maxBodyBytes);
  if (refused) return refused;
  if (request.bodyUsed || request.body?.locked) {
    return receiver.fail(
      new WebhookVerificationError(
        'invalid_body',
        'The request body was already read (request.json() or a body middleware ran first): ' +
          'hand the handler the untouched Request.',
      ),
      request.headers,
    );
  }
  let body: Uint8Array | typeof TOO_LARGE | typeof TOO_SLOW;
  try {
    const stream = request.body;
    if (stream === null) body = new Uint8Array(0);
    else {
      const reader = stream.getReader();
      const source = { next: () => reader.read(), stop: () => reader.cancel() };
      body = await readCapped(source, maxBodyBytes, scope.startedAt + timeoutMs);
      if (body === TOO_SLOW) stop(source);
    }
  } catch {
    // The client hung up mid-body.
    return unreadable();
  }
  if (body === TOO_LARGE) return tooLarge(maxBodyBytes);
  if (body === TOO_SLOW) return bodyTimedOut(timeoutMs);
  return receiver.process({ body, headers: request.headers }, fromWebRequest(request), scope);
}
