import { WebhookVerificationError } from './errors.js';

/** The raw request body: the exact bytes received, or the string they decode to. */
export type RawBody = string | Uint8Array | ArrayBuffer;

function invalidBody(message: string): WebhookVerificationError {
  return new WebhookVerificationError('invalid_body', message);
}

/**
 * Checks the body is raw (string or bytes) and not empty. The signature covers the exact bytes sent, so a
 * body that a framework already parsed (or re-serialised) can never be verified: say so, instead of
 * reporting a signature mismatch.
 */
export function rawBody(body: unknown): string | Uint8Array {
  let raw: string | Uint8Array;
  if (typeof body === 'string') raw = body;
  else if (body instanceof Uint8Array) raw = body;
  else if (body instanceof ArrayBuffer || Object.prototype.toString.call(body) === '[object ArrayBuffer]') {
    raw = new Uint8Array(body as ArrayBuffer);
  } else if (ArrayBuffer.isView(body)) raw = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  else if (body === undefined || body === null) {
    throw invalidBody('No body was given: pass the raw body (string or bytes) as received.');
  } else if (typeof body === 'object') {
    throw invalidBody(
      'The body was parsed to an object: pass the raw body (string or bytes) as received. A body parser ' +
        'ran first (express.json()?), and re-serialised JSON is not the signed bytes; see docs/webhooks.md.',
    );
  } else {
    throw invalidBody(`The body is a ${typeof body}: pass the raw body (string or bytes).`);
  }
  if (raw.length === 0) {
    throw invalidBody(
      'The body is empty: a body parser probably read the stream first; read the raw body on this route.',
    );
  }
  return raw;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, refusing bytes that are not UTF-8 (JSON must be UTF-8; a lossy decode hides damage). */
export function bodyText(body: string | Uint8Array): string {
  if (typeof body === 'string') return body;
  try {
    return utf8.decode(body);
  } catch {
    throw invalidBody(
      'The body is not UTF-8: the bytes are signed, but an event is UTF-8 JSON (did a proxy re-encode it?).',
    );
  }
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The bytes a base64 body decodes to, or null when it does not look like base64. Serverless platforms
 * (AWS API Gateway and Lambda function URLs with `isBase64Encoded`, some Netlify and Vercel setups) hand
 * over the body base64-encoded; a JSON event never starts with a base64 character run and ends with `=`.
 */
export function decodeBase64Body(body: string | Uint8Array): Uint8Array | null {
  // Base64 is ASCII, so a lossy decode of bytes loses nothing that matters here.
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  if (text.length < 16 || text.length % 4 !== 0 || !BASE64.test(text)) return null;
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** True when a string body holds U+FFFD, the mark a lossy decode of non-UTF-8 bytes leaves behind. */
export function hasReplacementCharacter(body: string | Uint8Array): boolean {
  return typeof body === 'string' && body.includes('\uFFFD');
}
