// `shop-mgmt/webhooks/verify`: the verify-only entry verifies and types deliveries, and its module graph holds
// nothing but verification (no handlers, dedupe stores, router, zod or transport).
import { createHmac } from 'node:crypto';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as verifyOnly from '../../src/webhooks/verify-only.js';

const secret = 'whsec_entry_test';

function signed(body: string, t: number): Record<string, string> {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return { 'service-signature': `t=${t},v1=${v1}` };
}

describe('shop-mgmt/webhooks/verify', () => {
  it('verifies a delivery and returns the typed event', async () => {
    const body = JSON.stringify({
      id: 'evt_9',
      object: 'event',
      type: 'range.reservation.booked',
      api_version: '2026-09-24',
      created_at: '2026-11-21T10:00:00Z',
      livemode: false,
      data: { object: { object: 'range_reservation', id: 5 } },
    });
    const event = await verifyOnly.verifyWebhook({
      body,
      headers: signed(body, 1_800_000_000),
      secret,
      now: 1_800_000_000,
    });
    expect(event).toMatchObject({ id: 'evt_9', type: 'range.reservation.booked' });
  });

  it('refuses a tampered body with the same error class as shop-mgmt/webhooks', async () => {
    const headers = signed('{"id":"evt_1"}', 1_800_000_000);
    const error = await verifyOnly
      .verifyWebhookSignature({ body: '{"id":"evt_2"}', headers, secret, now: 1_800_000_000 })
      .catch((e: unknown) => e);
    expect(verifyOnly.isWebhookVerificationError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'signature_mismatch' });
  });

  it('imports only the verification modules', async () => {
    const result = await build({
      entryPoints: [new URL('../../src/webhooks/verify-only.ts', import.meta.url).pathname],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      logLevel: 'error',
    });
    const modules = Object.keys(result.metafile.inputs);
    expect(modules.some((path) => path.endsWith('src/webhooks/verify.ts'))).toBe(true);
    const heavy = modules.filter((path) =>
      /node_modules\/(zod|p-retry)\/|src\/core\/transport\/|src\/webhooks\/(handler|receive|node|dedupe|router|redis)\.ts$/.test(
        path,
      ),
    );
    expect(heavy).toEqual([]);
  });
});
