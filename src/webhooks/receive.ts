// One delivery, from raw body to answer; the web and Node adapters both end here.
import { type DedupeClaim, type DedupeStore, hasLeases } from './dedupe.js';
import { reportedDelivery, reportedRequest } from './error-info.js';
import { isWebhookVerificationError, WebhookConfigurationError } from './errors.js';
import type { ShopEvent } from './events.js';
import { readDeliveryHeaders, type WebhookDelivery, type WebhookHeaders } from './headers.js';
import { fromInput, type WebhookRequest } from './request.js';
import { bounded, type CallScope, failureOf, LATE, within } from './respond-within.js';
import {
  type DeliveryReceiver,
  internalError,
  jsonResult,
  secretUnavailable,
  unknownEndpoint,
  verificationFailed,
  type WebhookDeliveryInput,
  type WebhookErrorInfo,
  type WebhookOutcome,
  type WebhookResult,
} from './results.js';
import type { EventContext, EventHandler, EventRouter } from './router.js';
import { type SettingsSource, WebhookSecretError } from './secrets.js';
import { verifyWith } from './verify.js';

/** Names a verified event's claim (`WebhookHandlerOptions.dedupeKey`). */
export type DedupeKey = (event: ShopEvent, request: WebhookRequest) => string | Promise<string>;

/** Where a handler with an inbox writes each verified event, keyed by id. */
export interface WebhookInbox {
  /** Writes the event down before the answer. */
  add(event: ShopEvent, source: 'webhook'): Promise<'added' | 'duplicate'>;
}

/** A handler's setup, checked once when it is created. */
export interface ReceiverSetup {
  /** Fixed, or from the secret resolver. */
  readonly settingsFor: SettingsSource;
  readonly dedupeKey: DedupeKey | undefined;
  /** Ms before answering 202 while handlers run; false: no bound. */
  readonly respondWithin: number | false;
  /** Used when a call brings no waitUntil. */
  readonly waitUntil: CallScope['waitUntil'];
  /** Unix seconds, read per delivery. */
  readonly clock: () => number;
  readonly dedupe: DedupeStore | null;
  readonly ttl: number;
  readonly leaseSeconds: number;
  /** Ms bound of every store or inbox call. */
  readonly storeTimeoutMs: number;
  /** When set, events are written here and answered 200; no handler runs. */
  readonly inbox: WebhookInbox | null;
  readonly router: EventRouter;
  readonly onEvent: EventHandler | undefined;
  readonly onError: ((error: unknown, info: WebhookErrorInfo) => void) | undefined;
  /** Fixed secrets, cut out of what `onError` is told. */
  readonly secrets: readonly string[];
}

interface ReportContext {
  readonly event?: ShopEvent;
  readonly request?: WebhookRequest | undefined;
  readonly background?: true;
  /** A resolver's secrets, cut out of what `onError` is told. */
  readonly secrets?: readonly string[] | undefined;
}

type Report = (
  error: unknown,
  outcome: WebhookOutcome,
  delivery: WebhookDelivery,
  context: ReportContext,
) => void;

/** The delivery receiver of one handler, for its adapters. */
export function deliveryReceiver(setup: ReceiverSetup): DeliveryReceiver {
  const report: Report = (error, outcome, delivery, { event, request, background, secrets }) => {
    const onError = setup.onError;
    if (!onError) return;
    try {
      // A secret pasted into a header must not reach the logs.
      const hidden = secrets ?? setup.secrets;
      onError(error, {
        outcome,
        delivery: reportedDelivery(delivery, hidden),
        ...(event ? { event } : {}),
        ...(request ? { request: reportedRequest(request, hidden) } : {}),
        ...(background ? { background } : {}),
      });
    } catch {
      // A failing logger must not change the answer.
    }
  };
  const failWith = (
    error: unknown,
    headers: unknown,
    request: WebhookRequest | undefined,
    secrets: readonly string[] | undefined,
  ): WebhookResult => {
    // The sender learns the reason only: the message may describe this receiver's secrets.
    const result = answerTo(error);
    report(error, result.outcome, deliveryOrNone(headers), { request, secrets });
    return result;
  };
  return {
    process: (input, request, scope) =>
      processDelivery(setup, report, failWith, input, request, scope ?? { startedAt: Date.now() }),
    fail: (error, headers, request) => failWith(error, headers, request, undefined),
  };
}

function answerTo(error: unknown): WebhookResult {
  if (isWebhookVerificationError(error)) return verificationFailed(error);
  if (error instanceof WebhookSecretError) {
    return error.reason === 'secret_not_found' ? unknownEndpoint() : secretUnavailable();
  }
  return internalError();
}

const NO_DELIVERY: WebhookDelivery = { eventType: null, eventId: null, deliveryId: null, attempt: null };

/** The delivery headers, for a report. */
function deliveryOrNone(headers: unknown): WebhookDelivery {
  try {
    return readDeliveryHeaders(headers as WebhookHeaders);
  } catch {
    return NO_DELIVERY;
  }
}

/** A delivery past verification, with the key its claim is taken under. */
interface Verified {
  readonly delivery: WebhookDelivery;
  readonly event: ShopEvent;
  readonly key: string;
  readonly request: WebhookRequest;
  /** Cut out of what `onError` is told. */
  readonly secrets: readonly string[];
}

/** The secrets a delivery is checked with, once known, for redaction. */
interface Found {
  secrets: readonly string[] | undefined;
}

async function processDelivery(
  setup: ReceiverSetup,
  report: Report,
  fail: (
    error: unknown,
    headers: unknown,
    request: WebhookRequest | undefined,
    secrets: readonly string[] | undefined,
  ) => WebhookResult,
  input: WebhookDeliveryInput,
  described: WebhookRequest | undefined,
  scope: CallScope,
): Promise<WebhookResult> {
  let verified: Verified;
  const found: Found = { secrets: undefined };
  try {
    verified = await verifyDelivery(setup, input, described, found);
  } catch (error) {
    return fail(
      error,
      input?.headers,
      described ?? (input?.headers ? fromInput(input) : undefined),
      found.secrets,
    );
  }
  const { dedupe, ttl, storeTimeoutMs, inbox } = setup;
  const { event, key, delivery } = verified;
  const about = { event, request: verified.request, secrets: verified.secrets };
  if (inbox) {
    // Written before the answer: a 200 means it is in the inbox.
    let added: 'added' | 'duplicate';
    try {
      added = await bounded('inbox add', () => inbox.add(event, 'webhook'), storeTimeoutMs);
    } catch (error) {
      report(error, 'failed', delivery, about);
      return jsonResult(503, 'failed', { error: { type: 'inbox_unavailable' } }, event);
    }
    return added === 'added'
      ? jsonResult(200, 'queued', { received: true }, event)
      : jsonResult(200, 'duplicate', { received: true, duplicate: true }, event);
  }
  let claim: DedupeClaim = true;
  if (dedupe) {
    const leases = hasLeases(dedupe);
    try {
      claim = await bounded(
        'dedupe claim',
        () => dedupe.claim(key, leases ? setup.leaseSeconds : ttl),
        storeTimeoutMs,
        // A claim that lands after the 503 is given back, so the retry is not refused.
        (late) => (typeof late === 'string' ? dedupe.release(key, late) : undefined),
      );
    } catch (error) {
      report(error, 'failed', delivery, about);
      return jsonResult(503, 'failed', { error: { type: 'dedupe_unavailable' } }, event);
    }
    if (!claim) {
      if (!leases) return jsonResult(200, 'duplicate', { received: true, duplicate: true }, event);
      let done: boolean;
      try {
        done = await bounded('dedupe isDone', () => dedupe.isDone(key), storeTimeoutMs);
      } catch (error) {
        report(error, 'failed', delivery, about);
        return jsonResult(503, 'failed', { error: { type: 'dedupe_unavailable' } }, event);
      }
      // In progress elsewhere: a retry comes back if that handler fails or dies.
      return done
        ? jsonResult(200, 'duplicate', { received: true, duplicate: true }, event)
        : jsonResult(409, 'in_progress', { error: { type: 'in_progress' } }, event);
    }
  }
  return handOn(setup, report, verified, claim, scope);
}

async function verifyDelivery(
  setup: ReceiverSetup,
  input: WebhookDeliveryInput,
  described: WebhookRequest | undefined,
  found: Found,
): Promise<Verified> {
  if (typeof input !== 'object' || input === null) {
    throw new WebhookConfigurationError('handle() needs { body, headers }: the raw body and the headers.');
  }
  const request = described ?? fromInput(input);
  const delivery = readDeliveryHeaders(input.headers);
  const resolved = setup.settingsFor(request);
  const settings = resolved instanceof Promise ? await resolved : resolved;
  found.secrets = settings.secrets;
  const event = await verifyWith(settings, input.body, input.headers, setup.clock());
  // From the verified body: the Service-Event-Id header is not signed.
  const key = setup.dedupeKey ? checkKey(await setup.dedupeKey(event, request)) : event.id;
  return { delivery, event, key, request, secrets: settings.secrets };
}

/** Runs a claimed event's handlers: 200, 500 (claim released), or 202 while they still run. */
async function handOn(
  setup: ReceiverSetup,
  report: Report,
  { delivery, event, key, request, secrets }: Verified,
  claim: DedupeClaim,
  scope: CallScope,
): Promise<WebhookResult> {
  const { dedupe, onEvent, router, respondWithin, storeTimeoutMs } = setup;
  const context: EventContext = { source: 'webhook', delivery, request };
  const leased = dedupe !== null && hasLeases(dedupe) && typeof claim === 'string' ? dedupe : null;
  const token = typeof claim === 'string' ? claim : '';
  // The lease is renewed while handlers run; a dead process stops renewing and the event is freed.
  const heartbeat = leased
    ? setInterval(
        () => {
          bounded('dedupe renew', () => leased.renew(key, token, setup.leaseSeconds), storeTimeoutMs).catch(
            () => undefined,
          );
        },
        Math.max(100, (setup.leaseSeconds * 1000) / 3),
      )
    : undefined;
  (heartbeat as { unref?: () => void } | undefined)?.unref?.();
  const handled = failureOf(async () => {
    await onEvent?.(event, context);
    await router.dispatch(event, context);
  }).finally(() => clearInterval(heartbeat));
  const failed = async (error: unknown, about: ReportContext) => {
    report(error, 'failed', delivery, about);
    if (!dedupe) return;
    try {
      // With the token, a claim since taken by another delivery stays; a failed release is harmless.
      await bounded(
        'dedupe release',
        () => (typeof claim === 'string' ? dedupe.release(key, claim) : dedupe.release(key)),
        storeTimeoutMs,
      );
    } catch (releaseError) {
      report(releaseError, 'failed', delivery, about);
    }
  };
  const succeeded = async (about: ReportContext) => {
    if (!leased) return;
    try {
      await bounded('dedupe complete', () => leased.complete(key, token, setup.ttl), storeTimeoutMs);
    } catch (error) {
      // Not marked done: the lease runs out and it is processed again (a duplicate, never a loss).
      report(error, 'failed', delivery, about);
    }
  };
  const first = await within(
    handled,
    respondWithin === false ? false : scope.startedAt + respondWithin - Date.now(),
  );
  if (first === LATE) {
    // Answered now; a later failure releases the claim. `handled` never rejects.
    const background = { event, request, background: true, secrets } as const;
    const rest = handled.then((failure) =>
      failure ? failed(failure.error, background) : succeeded(background),
    );
    const waitUntil = scope.waitUntil ?? setup.waitUntil;
    try {
      waitUntil?.(rest);
    } catch (error) {
      report(error, 'failed', delivery, background);
    }
    return jsonResult(202, 'accepted', { received: true, processing: true }, event);
  }
  if (first) {
    await failed(first.error, { event, request, secrets });
    return jsonResult(500, 'failed', { error: { type: 'handler_failed' } }, event);
  }
  await succeeded({ event, request, secrets });
  return jsonResult(200, 'processed', { received: true }, event);
}

function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key === '') {
    throw new WebhookConfigurationError(
      'dedupeKey must return a non-empty string, e.g. the tenant and the event id.',
    );
  }
  return key;
}
