import type { WebhookVerificationError } from './errors.js';
import type { ShopEvent } from './events.js';
import type { WebhookDelivery, WebhookHeaders } from './headers.js';
import type { WebhookRequest } from './request.js';
import type { CallScope, WaitUntil } from './respond-within.js';

/**
 * - `processed`: verified, claimed, handled (200);
 * - `accepted`: verified, claimed, handlers still running past `respondWithin` (202; they go on);
 * - `queued`: verified and written to the inbox (200); the inbox's workers process it;
 * - `duplicate`: verified, already done (or already in the inbox) (200, not handled again);
 * - `in_progress`: verified, and another delivery of the event is being processed under its lease (409: the
 *   sender retries, and the retry is processed if that handler failed or died);
 * - `rejected`: not verified (400), no secret for this endpoint (404), too big (413), too slow to send its
 *   body (408), or not a POST (405);
 * - `failed`: verified but `onEvent` threw (500), or the dedupe store or inbox failed or took longer than
 *   `storeTimeoutMs` (503), or the secret resolver failed (503); the sender retries.
 */
export type WebhookOutcome =
  | 'processed'
  | 'accepted'
  | 'queued'
  | 'duplicate'
  | 'in_progress'
  | 'rejected'
  | 'failed';

/** The answer to one delivery, for frameworks that build their own response. */
export interface WebhookResult {
  readonly status: number;
  readonly outcome: WebhookOutcome;
  /** JSON text to send back with `Content-Type: application/json`. */
  readonly body: string;
  /** The verified event, when verification passed. */
  readonly event?: ShopEvent;
}

/** A raw delivery as any framework can hand it over. */
export interface WebhookDeliveryInput {
  /** The raw body (string or bytes), never the parsed JSON. */
  readonly body: unknown;
  readonly headers: WebhookHeaders;
  /** The URL or path posted to (`request.url`), for a secret resolver or `dedupeKey` that reads it. */
  readonly url?: string | URL | undefined;
  /** The framework's own request, handed to the resolver and handlers as `request.native`. */
  readonly request?: unknown;
  /** The platform's waitUntil for this call, for handlers still running when the answer goes (a 202). */
  readonly waitUntil?: WaitUntil | undefined;
}

/**
 * What `onError` is told beside the error. The header fields (`delivery`, `request.headers`, `request.url`)
 * are the sender's to choose, so they come with the endpoint's secrets and any `whsec_...` string replaced
 * by `[redacted]`: a sender that pasted the secret into a header does not put it in your logs.
 */
export interface WebhookErrorInfo {
  readonly outcome: WebhookOutcome;
  readonly delivery: WebhookDelivery;
  /** The verified event, when the failure came after verification. */
  readonly event?: ShopEvent;
  /** The request the delivery came in on (which tenant's path), when the adapter got that far. */
  readonly request?: WebhookRequest;
  /**
   * True for a failure after the delivery was answered 202 (`respondWithin`): the sender will not retry it,
   * the claim was released, so a resend or the feed catch-up brings the event again.
   */
  readonly background?: true;
}

/** Handles one raw delivery; the core that the web and Node adapters share. */
export type DeliveryProcessor = (
  input: WebhookDeliveryInput,
  request?: WebhookRequest,
  scope?: CallScope,
) => Promise<WebhookResult>;

/** What the adapters need of a handler. */
export interface DeliveryReceiver {
  /** Verifies, dedupes and hands on one raw delivery. */
  readonly process: DeliveryProcessor;
  /**
   * Answers a delivery that failed outside the receiver, telling `onError`: 400 for a verification error
   * (the receiver's own code consumed the body), 500 for anything else (the adapter was called wrongly).
   */
  readonly fail: (error: unknown, headers: unknown, request?: WebhookRequest) => WebhookResult;
}

/** Builds a result with a JSON body. */
export function jsonResult(
  status: number,
  outcome: WebhookOutcome,
  body: unknown,
  event?: ShopEvent,
): WebhookResult {
  return event
    ? { status, outcome, body: JSON.stringify(body), event }
    : { status, outcome, body: JSON.stringify(body) };
}

/** Headers of every answer; `Allow` tells a client that used another method what to use. */
export function responseHeaders(status: number): Record<string, string> {
  return status === 405
    ? { 'content-type': 'application/json', allow: 'POST' }
    : { 'content-type': 'application/json' };
}

/** The answer when the receiver's own setup or code failed; the sender retries. */
export function internalError(): WebhookResult {
  return jsonResult(500, 'failed', { error: { type: 'internal_error' } });
}

/** The answer for a body over the limit. */
export function tooLarge(maxBodyBytes: number): WebhookResult {
  return jsonResult(413, 'rejected', { error: { type: 'body_too_large', max_bytes: maxBodyBytes } });
}

/** The answer for a body that did not arrive whole within `bodyTimeoutMs`. */
export function bodyTimedOut(bodyTimeoutMs: number): WebhookResult {
  return jsonResult(408, 'rejected', { error: { type: 'body_timeout', timeout_ms: bodyTimeoutMs } });
}

/** The answer for a body that could not be read: the client hung up mid-body and will not read it. */
export function unreadable(): WebhookResult {
  return jsonResult(400, 'rejected', { error: { type: 'body_unreadable' } });
}

/**
 * The answer that both adapters give before reading a body: 405 for a method other than POST (undefined
 * when the server does not say), 413 when the declared Content-Length is already over the limit.
 */
export function refuseBeforeReading(
  method: string | undefined,
  contentLength: unknown,
  maxBodyBytes: number,
): WebhookResult | undefined {
  if (method !== undefined && method !== 'POST') {
    return jsonResult(405, 'rejected', {
      error: { type: 'method_not_allowed', message: 'Deliveries are POSTs.' },
    });
  }
  if (Number(contentLength) > maxBodyBytes) return tooLarge(maxBodyBytes);
  return undefined;
}

/**
 * The answer for a delivery that failed verification: 400 with its reason only. The message can describe
 * the receiver's own setup (how many secrets it holds, a secret with a stray space), so it goes to
 * `onError`, never to an unauthenticated sender.
 */
export function verificationFailed({ reason }: WebhookVerificationError): WebhookResult {
  return jsonResult(400, 'rejected', { error: { type: 'webhook_verification_failed', reason } });
}

/** The answer when the secret resolver knows no secret for the endpoint posted to. */
export function unknownEndpoint(): WebhookResult {
  return jsonResult(404, 'rejected', { error: { type: 'unknown_endpoint' } });
}

/** The answer when the secret resolver failed (its store is down, say); the sender retries. */
export function secretUnavailable(): WebhookResult {
  return jsonResult(503, 'failed', { error: { type: 'secret_unavailable' } });
}
