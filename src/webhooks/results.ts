import type { WebhookVerificationError } from './errors.js';
import type { ShopEvent } from './events.js';
import type { WebhookDelivery, WebhookHeaders } from './headers.js';
import type { WebhookRequest } from './request.js';
import type { CallScope, WaitUntil } from './respond-within.js';

/** What became of a delivery; `failed` (500/503) is retried by the sender. */
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
  /** JSON text. */
  readonly body: string;
  /** Present once verification passed. */
  readonly event?: ShopEvent;
}

/** A raw delivery as any framework can hand it over. */
export interface WebhookDeliveryInput {
  /** Never the parsed JSON. */
  readonly body: unknown;
  readonly headers: WebhookHeaders;
  readonly url?: string | URL | undefined;
  /** The framework's own request. */
  readonly request?: unknown;
  /** The platform's waitUntil for this call. */
  readonly waitUntil?: WaitUntil | undefined;
}

/** What `onError` is told beside the error, secrets redacted. */
export interface WebhookErrorInfo {
  readonly outcome: WebhookOutcome;
  readonly delivery: WebhookDelivery;
  /** Present when the failure came after verification. */
  readonly event?: ShopEvent;
  readonly request?: WebhookRequest;
  /** After a 202: the claim was released, so a resend brings the event again. */
  readonly background?: true;
}

/** Handles one raw delivery; shared by the web and Node adapters. */
export type DeliveryProcessor = (
  input: WebhookDeliveryInput,
  request?: WebhookRequest,
  scope?: CallScope,
) => Promise<WebhookResult>;

/** What the adapters need of a handler. */
export interface DeliveryReceiver {
  /** Verifies, dedupes and hands on one raw delivery. */
  readonly process: DeliveryProcessor;
  /** Answers a delivery that failed outside the receiver: 400 for a verification error, else 500. */
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

/** Headers of every answer (`Allow` for a wrong method). */
export function responseHeaders(status: number): Record<string, string> {
  return status === 405
    ? { 'content-type': 'application/json', allow: 'POST' }
    : { 'content-type': 'application/json' };
}

/** The receiver's own setup or code failed; the sender retries. */
export function internalError(): WebhookResult {
  return jsonResult(500, 'failed', { error: { type: 'internal_error' } });
}

export function tooLarge(maxBodyBytes: number): WebhookResult {
  return jsonResult(413, 'rejected', { error: { type: 'body_too_large', max_bytes: maxBodyBytes } });
}

export function bodyTimedOut(bodyTimeoutMs: number): WebhookResult {
  return jsonResult(408, 'rejected', { error: { type: 'body_timeout', timeout_ms: bodyTimeoutMs } });
}

/** The client hung up mid-body. */
export function unreadable(): WebhookResult {
  return jsonResult(400, 'rejected', { error: { type: 'body_unreadable' } });
}

/** The answer before reading a body: 405 for a non-POST, 413 when Content-Length is over the limit. */
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

/** 400 with its reason only; the message (which may describe the setup) goes to `onError` alone. */
export function verificationFailed({ reason }: WebhookVerificationError): WebhookResult {
  return jsonResult(400, 'rejected', { error: { type: 'webhook_verification_failed', reason } });
}

/** No secret for the endpoint posted to. */
export function unknownEndpoint(): WebhookResult {
  return jsonResult(404, 'rejected', { error: { type: 'unknown_endpoint' } });
}

/** The secret resolver failed; the sender retries. */
export function secretUnavailable(): WebhookResult {
  return jsonResult(503, 'failed', { error: { type: 'secret_unavailable' } });
}
