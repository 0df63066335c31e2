// The webhook examples as a partner copies them: a receiver whose secret is not set must refuse to start,
// never fall back to a secret anyone can read.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveryHeaders, eventBody, unixNow } from './helpers.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('examples/webhooks/nextjs-route.ts', () => {
  it('fails at start-up when SHOP_WEBHOOK_SECRET is not set', async () => {
    vi.stubEnv('SHOP_WEBHOOK_SECRET', undefined);
    // A fresh module graph per import (resetModules), so its error class is not this file's: match the name.
    await expect(import('../../examples/webhooks/nextjs-route.js')).rejects.toMatchObject({
      name: 'WebhookConfigurationError',
      message: expect.stringMatching(/secret/),
    });
  });

  it('verifies deliveries with the secret from SHOP_WEBHOOK_SECRET', async () => {
    const secret = 'whsec_nextjs_example_secret';
    vi.stubEnv('SHOP_WEBHOOK_SECRET', secret);
    const { POST } = await import('../../examples/webhooks/nextjs-route.js');
    const body = eventBody({ type: 'sale.voided', data: { object: { object: 'order', id: 1 } } });
    const post = (signedWith: string) =>
      POST(
        new Request('http://127.0.0.1/api/webhooks/shop', {
          method: 'POST',
          body,
          headers: deliveryHeaders(body, signedWith, unixNow()),
        }),
      );
    expect((await post('whsec_set_SHOP_WEBHOOK_SECRET')).status).toBe(400);
    expect((await post(secret)).status).toBe(200);
  });
});
