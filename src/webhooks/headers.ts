import { WebhookConfigurationError, WebhookVerificationError } from './errors.js';

/** A delivery's headers: a fetch `Headers`, or a plain object such as Node's `req.headers`. */
export type WebhookHeaders = Headers | { readonly [name: string]: string | readonly string[] | undefined };

/** Longest `Service-Signature` value accepted; a real one is about 80 characters per secret. */
export const MAX_SIGNATURE_HEADER_LENGTH = 4096;
/** Most `v1` values accepted in one header; rotation sends two. */
export const MAX_SIGNATURES = 8;

const TIMESTAMP = /^[0-9]{1,12}$/;
const V1 = /^[0-9a-f]{64}$/;
const SIMPLE = /^t=([0-9]{1,12}),v1=([0-9a-f]{64})$/;

/** Reads one header by lowercase name (repeated values joined); a non-text value is a configuration error. */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) {
    throw new WebhookConfigurationError(
      "No headers object: pass the request's headers (fetch Headers or Node's req.headers).",
    );
  }
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as { readonly [name: string]: string | readonly string[] | undefined };
  let value = record[name];
  if (value === undefined) {
    // for...in: no array per lookup (~2 % of a 1 kB verification); inherited keys skipped.
    for (const key in record) {
      if (key.toLowerCase() === name && Object.hasOwn(record, key)) {
        value = record[key];
        break;
      }
    }
  }
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  // Joined as Node and fetch join a repeated header.
  if (Array.isArray(value)) return value.join(', ');
  throw new WebhookConfigurationError(
    `The ${name} header is a ${typeof value}: header values are strings (arrays for a repeated header).`,
  );
}

/** A `Service-Signature` header that passed the strict parse. */
export interface SignatureHeader {
  /** `t` exactly as sent (the signed text). */
  readonly timestamp: string;
  /** `t` as a number of unix seconds. */
  readonly timestampSeconds: number;
  /** Every well-formed `v1`. */
  readonly signatures: readonly string[];
}

function malformed(message: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `Service-Signature header ${message}`);
}

/** Parses `t=<unix>,v1=<hex>...` strictly: one all-digit `t` (so `t=abc` cannot skip the time check), `v1` capped. */
export function parseSignatureHeader(value: string | undefined): SignatureHeader {
  const simple = value === undefined ? null : SIMPLE.exec(value);
  if (simple) {
    return { timestamp: simple[1]!, timestampSeconds: Number(simple[1]), signatures: [simple[2]!] };
  }
  if (value === undefined || value.trim() === '') {
    throw new WebhookVerificationError(
      'missing_header',
      'No Service-Signature header: not a signed delivery, or a proxy dropped the header.',
    );
  }
  if (value.length > MAX_SIGNATURE_HEADER_LENGTH) {
    throw malformed(
      `is ${value.length} characters long; at most ${MAX_SIGNATURE_HEADER_LENGTH} are accepted.`,
    );
  }
  const timestamps: string[] = [];
  const signatures: string[] = [];
  let v1Count = 0;
  for (const rawPart of value.split(',')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const equals = part.indexOf('=');
    if (equals <= 0) throw malformed(`has a part without "key=value": expected "t=<unix seconds>,v1=<hex>".`);
    const key = part.slice(0, equals).trim();
    const partValue = part.slice(equals + 1).trim();
    if (key === 't') timestamps.push(partValue);
    else if (key === 'v1') {
      v1Count++;
      if (V1.test(partValue)) signatures.push(partValue);
    }
  }
  if (timestamps.length === 0) throw malformed('has no timestamp (t=...).');
  if (timestamps.length > 1) {
    throw malformed(
      `has ${timestamps.length} timestamps: two such headers were joined into one (Node and fetch join a ` +
        'repeated header with ", "); a delivery carries exactly one.',
    );
  }
  const timestamp = timestamps[0]!;
  if (!TIMESTAMP.test(timestamp)) throw malformed('has a timestamp that is not unix seconds (digits only).');
  if (v1Count === 0) throw malformed('has no v1 signature.');
  if (v1Count > MAX_SIGNATURES)
    throw malformed(`has ${v1Count} v1 signatures; at most ${MAX_SIGNATURES} are accepted.`);
  return { timestamp, timestampSeconds: Number(timestamp), signatures };
}

/** What a delivery's unsigned headers say about it. */
export interface WebhookDelivery {
  /** `Service-Event`. */
  readonly eventType: string | null;
  /** `Service-Event-Id`. */
  readonly eventId: string | null;
  /** `Service-Delivery-Id`. */
  readonly deliveryId: string | null;
  /** `Service-Attempt`. */
  readonly attempt: number | null;
}

/** Reads the delivery headers. */
export function readDeliveryHeaders(headers: WebhookHeaders): WebhookDelivery {
  const read = (name: string) => readHeader(headers, `service-${name}`)?.trim() || null;
  const attempt = read('attempt');
  return {
    eventType: read('event'),
    eventId: read('event-id'),
    deliveryId: read('delivery-id'),
    attempt: attempt && /^[0-9]{1,6}$/.test(attempt) ? Number(attempt) : null,
  };
}
