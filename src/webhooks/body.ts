import { WebhookVerificationError } from './errors.js';

/** The exact bytes received, or the string they decode to. */
export type RawBody = string | Uint8Array | ArrayBuffer;

function invalidBody(message: string): WebhookVerificationError {
  return new WebhookVerificationError('invalid_body', message);
}

/** Checks the body is raw and not empty: a parsed body can never verify, so say so rather than "mismatch". */
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

/** The body as text; non-UTF-8 bytes are refused, not decoded lossily. */
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

/** The bytes of a base64 body (Lambda's `isBase64Encoded`, some Netlify and Vercel setups), else null. */
export function decodeBase64Body(body: string | Uint8Array): Uint8Array | null {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  if (text.length < 16 || text.length % 4 !== 0 || !BASE64.test(text)) return null;
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** True when a string body holds U+FFFD, the mark of a lossy decode. */
export function hasReplacementCharacter(body: string | Uint8Array): boolean {
  return typeof body === 'string' && body.includes('\uFFFD');
}
