// Test helpers that sign deliveries WITHOUT the SDK's signer: node:crypto and the openssl CLI, so a bug shared
// by signPayload and verifyWebhook cannot make the tests agree with themselves.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';

/** HMAC-SHA256 of `t.body` with node:crypto, lowercase hex. */
export function nodeHmac(secret: string, timestamp: number | string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** HMAC-SHA256 of `t.body` computed by `openssl dgst -sha256 -hmac`, lowercase hex. */
export function opensslHmac(secret: string, timestamp: number | string, body: string | Uint8Array): string {
  const input = Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.from(body)]);
  const result = spawnSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl failed: ${result.stderr}`);
  const hex = result.stdout.trim().split(/\s+/).pop() ?? '';
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`unexpected openssl output: ${result.stdout}`);
  return hex;
}

/** True when the openssl CLI can be run here. */
export const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

/** A `Service-Signature` value signed with node:crypto under each secret. */
export function signatureHeader(
  secrets: string | string[],
  timestamp: number,
  body: string | Uint8Array,
): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return [`t=${timestamp}`, ...list.map((secret) => `v1=${nodeHmac(secret, timestamp, body)}`)].join(',');
}

let counter = 0;

/** A well-formed event envelope (as JSON text) of the given type. */
export function eventBody(overrides: Record<string, unknown> = {}): string {
  counter++;
  return JSON.stringify({
    id: `evt_test_${counter}`,
    object: 'event',
    type: 'range.reservation.booked',
    api_version: '2026-09-24',
    created_at: '2026-09-24T10:00:00Z',
    livemode: false,
    data: { object: { object: 'range_reservation', id: counter, status: 'booked' } },
    ...overrides,
  });
}

/** The delivery headers the API sends with a body, signed with node:crypto. */
export function deliveryHeaders(
  body: string,
  secret: string | string[],
  timestamp: number,
  attempt = 1,
): Record<string, string> {
  const event = JSON.parse(body) as { id: string; type: string };
  return {
    'content-type': 'application/json',
    'service-event': event.type,
    'service-event-id': event.id,
    'service-delivery-id': `dlv_${event.id}_${attempt}`,
    'service-attempt': String(attempt),
    'service-signature': signatureHeader(secret, timestamp, body),
  };
}

/** Unix seconds now. */
export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
