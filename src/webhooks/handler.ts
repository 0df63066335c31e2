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

/** Default largest body read, in bytes (1 MiB); an event is a few kilobytes. */
export const DEFAULT_MAX_BODY_BYTES = 1 << 20;

/** Default time a sender has to send the whole body, in ms from the handler's call. */
export const DEFAULT_BODY_TIMEOUT_MS = 5000;

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /**
   * The endpoint's signing secret (`whsec_...`), or old and new during a rotation. For one receiver serving
   * several shops or endpoints, a resolver called per delivery with the {@link WebhookRequest}, e.g.
   * `(request) => secrets.get(request.url.pathname.split('/').pop())`: nothing from it answers 404, a throw
   * 503 (both told to `onError` as a `WebhookSecretError`).
   */
  secret: WebhookSecret | WebhookSecretResolver;
  /**
   * The key an event is claimed under in the dedupe store. Default: the event id. A receiver for several
   * shops sharing one store can namespace it, e.g. `(event, request) => shopOf(request) + ':' + event.id`.
   * Must give a non-empty string; the feed catch-up sharing the store must claim the same keys.
   */
  dedupeKey?: (event: ShopEvent, request: WebhookRequest) => string | Promise<string>;
  /**
   * Where event ids in progress and done are remembered. Default: a {@link MemoryDedupeStore} of this
   * process; pass a shared store (e.g. `RedisDedupeStore`) when several processes receive, or `false` to
   * turn dedupe off. See docs/webhooks.md, "Which setup loses what".
   */
  dedupe?: DedupeStore | false;
  /** How long a processed id is remembered, in seconds. @default 259200 (3 days, past the 37 h of retries) */
  dedupeTtlSeconds?: number;
  /**
   * How long an event is held in progress, in seconds, with a dedupe store that has leases: the running
   * handler renews it every third of it, and a process that dies frees the event this long after its last
   * renewal. @default 30
   */
  leaseSeconds?: number;
  /**
   * Longest a dedupe store or inbox call may take, in ms; past it the delivery is answered 503 and the sender
   * retries. @default 500
   */
  storeTimeoutMs?: number;
  /**
   * A durable inbox (`new Inbox(store)` of `shop-mgmt/inbox`): each verified event is written to it, keyed by
   * its id (a duplicate is a no-op), and only then answered 200; the inbox's workers process it. No handler
   * runs in the request, so `onEvent`, `.on()` and `dedupe` are not used with it. A write that fails or takes
   * longer than `storeTimeoutMs` answers 503, and the sender retries.
   */
  inbox?: WebhookInbox;
  /** Called once per event id; a throw answers 500, releases the claim, and the sender retries. */
  onEvent?: EventHandler;
  /** Clock tolerance of the signature timestamp, in seconds, either way. @default 300 */
  toleranceSeconds?: number;
  /**
   * The receiver's clock, read for every delivery: a function giving a `Date` or unix seconds, or a fixed
   * one. The sandbox signs with the real time, so tests need none; against a sandbox made with
   * `signatureClock: 'sandbox'`: `now: () => sandbox.clock.now()`. @default the current time
   */
  now?: (() => Date | number) | Date | number;
  /** Largest body read; a bigger one is answered 413. @default 1048576 */
  maxBodyBytes?: number;
  /**
   * Time the sender has to send the whole body, in ms from the handler's call; a slower one is answered
   * 408 and its connection dropped, so slow senders cannot hold the receiver's sockets. @default 5000
   */
  bodyTimeoutMs?: number;
  /**
   * How long, in ms from the handler's call, to wait on `onEvent` and the typed handlers before answering
   * `202` while they go on (the service fails a delivery with no 2xx within 10 s and sends it again). The
   * work then finishes on the platform's `waitUntil` (the `waitUntil` option, or one given per call), in the
   * running process without one (Node). If it then fails, `onError` is told (`background: true`) and the
   * claim is released. `false` waits however long: for platforms that freeze after the answer and give no
   * `waitUntil` (AWS Lambda). @default 8000
   */
  respondWithin?: number | false;
  /**
   * Keeps the platform running until handlers answered `202` finish: Vercel's `waitUntil` from
   * `@vercel/functions`. On Workers and Netlify it comes per call instead: the handler finds a `waitUntil`
   * method among its extra arguments (`fetch(request, env, ctx)`), or `webhooks(request, { waitUntil })`.
   */
  waitUntil?: WaitUntil;
  /**
   * Told about every refused or failed delivery (verification errors, a secret resolver that found nothing or
   * failed, a throwing `onEvent`, also after a 202, a failing dedupe store), for logging. The SDK's messages
   * never hold the secret or an unsigned header's value.
   */
  onError?: (error: unknown, info: WebhookErrorInfo) => void;
}

/**
 * A web-standard request handler (`(Request) => Promise<Response>`, for Next.js route handlers, Hono, Bun,
 * Deno and Workers), with a typed registry and adapters for other servers. Further arguments are searched
 * for a `waitUntil` method (Workers' `ctx`, Netlify's `context`, or `{ waitUntil }`); see `respondWithin`.
 */
export interface WebhookHandler {
  (request: Request, ...platform: unknown[]): Promise<Response>;
  /** Adds a handler for one event type, called after `onEvent`; see {@link EventRouter.on}. */
  on<T extends EventType>(type: T, handler: EventHandler<ShopEventOf<T>>): WebhookHandler;
  /** Adds the fallback for event types this SDK does not know yet; see {@link EventRouter.onUnknown}. */
  onUnknown(handler: EventHandler<UnknownShopEvent>): WebhookHandler;
  /** Handles a raw delivery from any framework; build the response from the result. */
  handle(input: WebhookDeliveryInput): Promise<WebhookResult>;
  /** For Node's `http` server and Express: reads the raw body from the request stream itself. */
  node: NodeRequestHandler;
}

/**
 * Creates a webhook endpoint: verifies each delivery, claims its event id in the dedupe store, calls
 * `onEvent` and the typed handlers once per event id, and answers so that the sender retries exactly what
 * was not processed: 200 for processed or duplicate, 202 when the handlers are still running at
 * `respondWithin` (they go on), 400 for a bad signature, 404 when a secret resolver knows no secret for the
 * request, 500 (claim released) when a handler throws.
 *
 * @throws {WebhookConfigurationError} at once when the secret is empty or an option is out of range.
 * @example
 * const handler = createWebhookHandler({ secret: process.env.SHOP_WEBHOOK_SECRET! })
 *   .on('inventory.changed', (event) => mirror.applyEvent(event));
 * export const POST = handler; // Next.js route handler
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
      // Not a Request (a wrong call): a 500 the sender retries once the code is fixed, and onError is told.
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

/** The handler's fixed secrets, to cut out of what `onError` is told; a resolver's come per delivery. */
function fixedSecrets(secret: WebhookHandlerOptions['secret']): readonly string[] {
  if (typeof secret === 'string') return [secret];
  return Array.isArray(secret) ? secret.filter((one): one is string => typeof one === 'string') : [];
}

/**
 * Unix seconds now, by the `now` option. A fixed time is checked at once; a function is called per
 * delivery, so a bad value from it fails that delivery (500, the sender retries) and reaches `onError`.
 */
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
    // The client hung up mid-body; it will not read the answer, but the handler never rejects.
    return unreadable();
  }
  if (body === TOO_LARGE) return tooLarge(maxBodyBytes);
  if (body === TOO_SLOW) return bodyTimedOut(timeoutMs);
  return receiver.process({ body, headers: request.headers }, fromWebRequest(request), scope);
}
