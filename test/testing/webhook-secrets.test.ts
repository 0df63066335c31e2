// Endpoint secrets the test chooses: `addEndpoint({ secret })` and `rotateSecret(id, { secret })` sign with
// that secret, and a secret the real service could not have (reference section 6: each endpoint's signing
// secret begins whsec_) is refused when it is given, not when a delivery later fails to sign.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxUsageError } from '../../src/testing/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { startReceiver } from '../e2e/support/receiver.js';
import { newSandbox } from './helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function receiver() {
  const started = await startReceiver();
  closers.push(started.close);
  return started;
}

const MINE = 'whsec_partner_configured_secret_0123456789';

describe('webhook endpoints with a secret the test gives', () => {
  it('returns that secret and signs every delivery with it', async () => {
    const sandbox = newSandbox();
    const hook = await receiver();
    const endpoint = sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'], secret: MINE });
    expect(endpoint.secret).toBe(MINE);

    sandbox.register.rentOut(1, { customerId: 1 });
    const [attempt] = await sandbox.webhooks.flush();
    expect(attempt).toMatchObject({ status: 'succeeded', endpointId: endpoint.id });
    const [delivery] = hook.received;
    const verified = await verifyWebhook({
      body: delivery!.body,
      headers: delivery!.headers,
      secret: MINE,
    });
    expect(verified.type).toBe('range.rental.checked_out');
    const t = Number(/t=(\d+)/.exec(String(delivery!.headers['service-signature']))![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60); // the real time, not the sandbox's
    const v1 = createHmac('sha256', MINE).update(`${t}.${delivery!.body}`).digest('hex');
    expect(delivery!.headers['service-signature']).toBe(`t=${t},v1=${v1}`);
    await expect(
      verifyWebhook({
        body: delivery!.body,
        headers: delivery!.headers,
        secret: 'whsec_some_other_secret',
      }),
    ).rejects.toMatchObject({ reason: 'signature_mismatch' });
  });

  it('rotates to a secret the test gives, signing with both during the grace period', async () => {
    const sandbox = newSandbox();
    const hook = await receiver();
    const { id } = sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'], secret: MINE });
    const next = 'whsec_rotated_by_the_test';
    expect(sandbox.webhooks.rotateSecret(id, { secret: next, graceHours: 2 })).toBe(next);
    sandbox.register.rentOut(1, { customerId: 1 });
    await sandbox.webhooks.flush();
    const [delivery] = hook.received;
    for (const secret of [MINE, next]) {
      await expect(
        verifyWebhook({ body: delivery!.body, headers: delivery!.headers, secret }),
      ).resolves.toBeTruthy();
    }
  });

  it('refuses a secret that is not a whsec_ string, before any delivery is attempted', async () => {
    const sandbox = newSandbox();
    const hook = await receiver();
    for (const secret of ['', '   ', 'not-a-webhook-secret', 'whsec_', 42 as unknown as string]) {
      expect(() => sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'], secret })).toThrow(
        SandboxUsageError,
      );
    }
    expect(sandbox.webhooks.endpoints()).toEqual([]);
    const { id } = sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'], secret: MINE });
    expect(() => sandbox.webhooks.rotateSecret(id, { secret: '' })).toThrow(SandboxUsageError);
    sandbox.register.rentOut(1, { customerId: 1 });
    await expect(sandbox.webhooks.flush()).resolves.toEqual([
      expect.objectContaining({ status: 'succeeded' }),
    ]);
  });
});
