// One delivery, from raw body to answer: verify, claim the event id, hand the event on, and answer so that
// the sender retries exactly what was not processed. The web and Node adapters both end here.
import type { DedupeClaim, DedupeStore } from './dedupe.js';
import { isWebhookVerificationError, WebhookConfigurationError } from './errors.js';
import type { ShopEvent } from './events.js';
import type { WebhookErrorInfo } from './handler.js';
import { readDeliveryHeaders, type WebhookDelivery, type WebhookHeaders } from './headers.js';
import {
  type DeliveryPipeline,
  internalError,
  jsonResult,
  verificationFailed,
  type WebhookDeliveryInput,
  type WebhookOutcome,
  type WebhookResult,
} from './results.js';
import type { EventHandler, EventRouter } from './router.js';
import { type VerifierSettings, verifyWith } from './verify.js';

/** A handler's setup, checked once when it is created. */
export interface PipelineSetup {
  readonly settings: VerifierSettings;
  /** The receiver's clock in unix seconds, read per delivery. */
  readonly clock: () => number;
  readonly dedupe: DedupeStore | null;
  readonly ttl: number;
  readonly router: EventRouter;
  readonly onEvent: EventHandler | undefined;
  readonly onError: ((error: unknown, info: WebhookErrorInfo) => void) | undefined;
}

type Report = (error: unknown, outcome: WebhookOutcome, delivery: WebhookDelivery, event?: ShopEvent) => void;

/** The delivery pipeline of one handler, for its adapters. */
export function deliveryPipeline(setup: PipelineSetup): DeliveryPipeline {
  const report: Report = (error, outcome, delivery, event) => {
    try {
      setup.onError?.(error, { outcome, delivery, ...(event ? { event } : {}) });
    } catch {
      // A failing logger must not change the answer the sender gets.
    }
  };
  const fail = (error: unknown, headers: unknown): WebhookResult => {
    // The sender learns the reason only: the message may describe this receiver's secrets (a rotation, a
    // pasted space), which is for the receiver's logs.
    const rejected = isWebhookVerificationError(error);
    report(error, rejected ? 'rejected' : 'failed', deliveryOrNone(headers));
    return rejected ? verificationFailed(error) : internalError();
  };
  return { process: (input) => processDelivery(setup, report, fail, input), fail };
}

const NO_DELIVERY: WebhookDelivery = { eventType: null, eventId: null, deliveryId: null, attempt: null };

/** The delivery headers, for a report about headers that may be what failed. */
function deliveryOrNone(headers: unknown): WebhookDelivery {
  try {
    return readDeliveryHeaders(headers as WebhookHeaders);
  } catch {
    return NO_DELIVERY;
  }
}

async function processDelivery(
  setup: PipelineSetup,
  report: Report,
  fail: DeliveryPipeline['fail'],
  input: WebhookDeliveryInput,
): Promise<WebhookResult> {
  const { settings, clock, dedupe, ttl, router, onEvent } = setup;
  let delivery: WebhookDelivery;
  let event: ShopEvent;
  try {
    if (typeof input !== 'object' || input === null) {
      throw new WebhookConfigurationError('handle() needs { body, headers }: the raw body and the headers.');
    }
    delivery = readDeliveryHeaders(input.headers);
    event = await verifyWith(settings, input.body, input.headers, clock());
  } catch (error) {
    return fail(error, input?.headers);
  }

  // The id comes from the verified body: the Service-Event-Id header is not signed.
  let claim: DedupeClaim = true;
  if (dedupe) {
    try {
      claim = await dedupe.claim(event.id, ttl);
    } catch (error) {
      report(error, 'failed', delivery, event);
      return jsonResult(503, 'failed', { error: { type: 'dedupe_unavailable' } }, event);
    }
    if (!claim) return jsonResult(200, 'duplicate', { received: true, duplicate: true }, event);
  }

  try {
    const context = { source: 'webhook', delivery } as const;
    await onEvent?.(event, context);
    await router.dispatch(event, context);
  } catch (error) {
    report(error, 'failed', delivery, event);
    if (dedupe) {
      try {
        // With the claim's token, a claim that ran out meanwhile and was taken by another delivery stays.
        await (typeof claim === 'string' ? dedupe.release(event.id, claim) : dedupe.release(event.id));
      } catch (releaseError) {
        report(releaseError, 'failed', delivery, event);
      }
    }
    return jsonResult(500, 'failed', { error: { type: 'handler_failed' } }, event);
  }
  return jsonResult(200, 'processed', { received: true }, event);
}
