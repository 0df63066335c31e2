import { bodyText, decodeBase64Body, hasReplacementCharacter, type RawBody, rawBody } from './body.js';
import { observeVerification } from './diagnostics.js';
import { requireOptions, WebhookConfigurationError, WebhookVerificationError } from './errors.js';
import { parseEvent, type ShopEvent } from './events.js';
import { parseSignatureHeader, readHeader, type SignatureHeader, type WebhookHeaders } from './headers.js';
import { anySignatureMatches } from './hmac.js';

/** Default clock tolerance, in seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** The raw body as received, never parsed JSON. */
  body: RawBody;
  headers: WebhookHeaders;
  /** During a rotation, old and new. */
  secret: string | readonly string[];
  /** Seconds `t` may be from the receiver's clock. @default 300 */
  toleranceSeconds?: number;
  /** A `Date`, or unix seconds. @default now */
  now?: Date | number;
}

/** A receiver's setup, validated once. */
export interface VerifierSettings {
  readonly secrets: readonly string[];
  readonly toleranceSeconds: number;
}

// Most receivers pass the same secret every call: checked once.
let lastSettings: VerifierSettings | undefined;

/** Checks the receiver's setup; a mistake here is not a verification error. */
export function verifierSettings(
  secret: string | readonly string[],
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): VerifierSettings {
  if (
    lastSettings !== undefined &&
    typeof secret === 'string' &&
    lastSettings.secrets.length === 1 &&
    lastSettings.secrets[0] === secret &&
    lastSettings.toleranceSeconds === toleranceSeconds
  ) {
    return lastSettings;
  }
  lastSettings = checkSettings(secret, toleranceSeconds);
  return lastSettings;
}

function checkSettings(secret: string | readonly string[], toleranceSeconds: number): VerifierSettings {
  const secrets = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : null;
  if (!secrets || secrets.length === 0) {
    throw new WebhookConfigurationError(
      'No webhook secret: pass the endpoint signing secret (whsec_...), or a list during a rotation.',
    );
  }
  for (const one of secrets) {
    if (typeof one !== 'string' || one.trim() === '') {
      throw new WebhookConfigurationError(
        'A webhook secret is empty or blank: check the environment variable meant to hold it.',
      );
    }
  }
  return { secrets, toleranceSeconds: checkTolerance(toleranceSeconds) };
}

/** Checks `toleranceSeconds` on its own, for a handler whose secrets come per delivery. */
export function checkTolerance(toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS): number {
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new WebhookConfigurationError('toleranceSeconds must be a finite number of seconds, 0 or more.');
  }
  return toleranceSeconds;
}

/** The receiver's clock in unix seconds. */
export function nowSeconds(now: Date | number | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (now instanceof Date) {
    const ms = now.getTime();
    if (Number.isNaN(ms)) throw new WebhookConfigurationError('now is an invalid Date.');
    return Math.floor(ms / 1000);
  }
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0) {
    throw new WebhookConfigurationError('now must be a Date or unix seconds.');
  }
  // Unix seconds reach 1e11 in the year 5138; bigger is milliseconds by mistake.
  if (now >= 1e11)
    throw new WebhookConfigurationError('now looks like milliseconds: pass unix seconds or a Date.');
  return Math.floor(now);
}

/**
 * Verifies a delivery (signature, timestamp, headers against the signed body) and returns its event.
 * @throws {WebhookVerificationError} when the delivery is not authentic or not an event.
 * @throws {WebhookConfigurationError} when the secret is empty or an option is out of range.
 * @example
 * const event = await verifyWebhook({ body: await request.text(), headers: request.headers, secret });
 */
export function verifyWebhook(options: VerifyWebhookOptions): Promise<ShopEvent> {
  return observeVerification(verifyOptions(options));
}

function verifyOptions(options: VerifyWebhookOptions): Promise<ShopEvent> {
  try {
    requireOptions('verifyWebhook', 'body, headers, secret', options);
    const settings = verifierSettings(options.secret, options.toleranceSeconds);
    return asPromise(verifyNow(settings, options.body, options.headers, nowSeconds(options.now)));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A promise of `result` without an `async` function's extra turns. */
function asPromise<T>(result: T | Promise<T>): Promise<T> {
  return result instanceof Promise ? result : Promise.resolve(result);
}

/**
 * Checks only signature and timestamp, for receivers that queue the raw body.
 * @throws {WebhookVerificationError} when the delivery is not authentic.
 * @throws {WebhookConfigurationError} when the secret is empty or an option is out of range.
 */
export function verifyWebhookSignature(options: VerifyWebhookOptions): Promise<void> {
  return observeVerification(verifySignature(options));
}

function verifySignature(options: VerifyWebhookOptions): Promise<void> {
  try {
    requireOptions('verifyWebhookSignature', 'body, headers, secret', options);
    const settings = verifierSettings(options.secret, options.toleranceSeconds);
    const raw = authenticate(settings, options.body, options.headers, nowSeconds(options.now));
    return raw instanceof Promise ? raw.then(() => undefined) : Promise.resolve();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** {@link verifyWebhook} with settings checked beforehand. */
export function verifyWith(
  settings: VerifierSettings,
  body: unknown,
  headers: WebhookHeaders,
  now: number,
): Promise<ShopEvent> {
  try {
    return observeVerification(asPromise(verifyNow(settings, body, headers, now)));
  } catch (error) {
    return observeVerification(Promise.reject(error));
  }
}

/** The event, synchronously where the HMAC is (node:crypto). */
function verifyNow(
  settings: VerifierSettings,
  body: unknown,
  headers: WebhookHeaders,
  now: number,
): ShopEvent | Promise<ShopEvent> {
  const authentic = authenticate(settings, body, headers, now);
  if (authentic instanceof Promise) return authentic.then((raw) => eventOf(raw, headers));
  return eventOf(authentic, headers);
}

function eventOf(raw: Raw, headers: WebhookHeaders): ShopEvent {
  const event = parseEvent(bodyText(raw));
  checkDeliveryHeaders(headers, event);
  return event;
}

type Raw = string | Uint8Array;

/** Checks signature then time; returns the signed raw body. Synchronous where the HMAC is. */
function authenticate(
  settings: VerifierSettings,
  body: unknown,
  headers: WebhookHeaders,
  now: number,
): Raw | Promise<Raw> {
  const header = parseSignatureHeader(readHeader(headers, 'service-signature'));
  const raw = rawBody(body);
  const matched = anySignatureMatches(settings.secrets, header.timestamp, raw, header.signatures);
  if (matched === true) return checkTime(settings, header, raw, now);
  return (async () => {
    if (!(await matched)) throw await mismatch(settings, header, raw);
    return checkTime(settings, header, raw, now);
  })();
}

function checkTime(settings: VerifierSettings, header: SignatureHeader, raw: Raw, now: number): Raw {
  const skew = now - header.timestampSeconds;
  if (Math.abs(skew) > settings.toleranceSeconds) {
    const direction = skew > 0 ? 'in the past' : 'in the future';
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature is valid but its timestamp is ${Math.abs(skew)} s ${direction} (tolerance ` +
        `${settings.toleranceSeconds} s): a replayed delivery, or this machine's clock is off.`,
    );
  }
  return raw;
}

function checkDeliveryHeaders(headers: WebhookHeaders, event: ShopEvent): void {
  checkDeliveryHeader(headers, 'Service-Event-Id', 'service-event-id', event.id);
  checkDeliveryHeader(headers, 'Service-Event', 'service-event', event.type);
}

function checkDeliveryHeader(headers: WebhookHeaders, name: string, lower: string, signed: string): void {
  const sent = readHeader(headers, lower)?.trim();
  // Only the signed value is quoted: an unsigned header may hold anything, and this reaches the logs.
  if (sent && sent !== signed) {
    throw new WebhookVerificationError(
      'invalid_payload',
      `The ${name} header disagrees with the signed body (${clip(signed)}); the header is not signed, ` +
        'so the delivery is refused.',
    );
  }
}

function clip(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
}

/** Explains a mismatch; failure path only. */
async function mismatch(
  settings: VerifierSettings,
  header: SignatureHeader,
  raw: string | Uint8Array,
): Promise<WebhookVerificationError> {
  const decoded = decodeBase64Body(raw);
  if (
    decoded &&
    (await anySignatureMatches(settings.secrets, header.timestamp, decoded, header.signatures))
  ) {
    return new WebhookVerificationError(
      'invalid_body',
      'The body is base64-encoded (AWS API Gateway or Lambda with isBase64Encoded): decode it to bytes first.',
    );
  }
  const hints: string[] = [];
  if (header.signatures.length === 0) {
    hints.push('no v1 is 64 lowercase hex characters');
  }
  if (hasReplacementCharacter(raw)) {
    hints.push('the body holds U+FFFD, left by decoding bytes that are not UTF-8: pass the bytes');
  }
  if (settings.secrets.some((secret) => !secret.startsWith('whsec_'))) {
    hints.push('a secret lacks its "whsec_" prefix, which is part of the key');
  }
  if (settings.secrets.some((secret) => secret !== secret.trim())) {
    hints.push('a secret has surrounding whitespace');
  }
  const plural = settings.secrets.length > 1 ? `any of the ${settings.secrets.length} secrets` : 'the secret';
  return new WebhookVerificationError(
    'signature_mismatch',
    `No v1 signature matches this body under ${plural}: check it is this endpoint's secret and that the ` +
      `body is the raw bytes received${hints.map((hint) => `; ${hint}`).join('')}.`,
  );
}
