import { requireOptions, WebhookConfigurationError } from './errors.js';
import { hmacHex } from './hmac.js';
import { verifierSettings } from './verify.js';

/** Options of {@link signPayload}. */
export interface SignPayloadOptions {
  /** The exact body that will be sent. */
  body: string | Uint8Array;
  /** The signing secret; a list signs with each, as during a rotation. */
  secret: string | readonly string[];
  /** Unix seconds to sign at. @default the current time */
  timestamp?: number;
}

/**
 * Signs a body as the API does and returns the `Service-Signature` value (one `v1` per secret), for
 * partners' tests and the sandbox.
 * @example
 * const signature = await signPayload({ body, secret: 'whsec_test_secret' });
 */
export async function signPayload(options: SignPayloadOptions): Promise<string> {
  requireOptions('signPayload', 'body, secret', options);
  const { secrets } = verifierSettings(options.secret);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new WebhookConfigurationError('timestamp must be a whole number of unix seconds.');
  }
  const body = options.body;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new WebhookConfigurationError('body must be the exact string or bytes that will be sent.');
  }
  const t = String(timestamp);
  const signatures = await Promise.all(secrets.map((secret) => hmacHex(secret, t, body)));
  return [`t=${t}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}
