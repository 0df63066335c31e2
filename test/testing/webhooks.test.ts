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

async function receiver(script: Parameters<typeof startReceiver>[0] = []) {
  const started = await startReceiver(script);
  closers.push(started.close);
  return started;
}

describe('sandbox webhook deliveries', () => {
  it('delivers a signed POST with the section 6 headers on flush, verifiable with the endpoint secret', async () => {
    const sandbox = newSandbox();
    const hook = await receiver();
    const { id, secret } = sandbox.webhooks.addEndpoint({
      url: hook.url,
      types: ['range.rental.checked_out'],
      authHeader: { name: 'X-Partner-Token', value: 'tok_123' },
    });
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    sandbox.register.rentOut(1, { customerId: 1 });
    expect(hook.received).toHaveLength(0);
    const attempts = await sandbox.webhooks.flush();
    expect(attempts).toEqual([
      expect.objectContaining({ endpointId: id, attempt: 1, status: 'succeeded', httpStatus: 200 }),
    ]);
    const [delivery] = hook.received;
    const event = JSON.parse(delivery!.body);
    expect(delivery!.headers).toMatchObject({
      'content-type': 'application/json',
      'service-event': 'range.rental.checked_out',
      'service-event-id': event.id,
      'service-delivery-id': attempts[0]!.deliveryId,
      'service-attempt': '1',
      'x-partner-token': 'tok_123',
    });
    const verified = await verifyWebhook({
      body: delivery!.body,
      headers: delivery!.headers,
      secret,
    });
    expect(verified.id).toBe(event.id);
    // Section 6 by hand: HMAC-SHA256 of "t.body" keyed with the secret, t the real time in seconds (the
    // sandbox clock is a fixed day in 2026: a receiver checks t against its own clock).
    const t = Number(/t=(\d+)/.exec(String(delivery!.headers['service-signature']))![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
    expect(Math.abs(t - sandbox.clock.nowMs() / 1000)).toBeGreaterThan(3600);
    const v1 = createHmac('sha256', secret).update(`${t}.${delivery!.body}`).digest('hex');
    expect(delivery!.headers['service-signature']).toBe(`t=${t},v1=${v1}`);
    expect(await sandbox.webhooks.flush()).toEqual([]);
  });

  it('retries a failing receiver on the schedule: 1m, then 5m, keeping the event id', async () => {
    const sandbox = newSandbox();
    const hook = await receiver([500, 503]);
    sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'] });
    sandbox.register.rentOut(1, { customerId: 1 });
    expect((await sandbox.webhooks.flush())[0]).toMatchObject({
      status: 'failed',
      httpStatus: 500,
      error: 'http_500',
    });
    sandbox.clock.advance('59s');
    expect(await sandbox.webhooks.flush()).toEqual([]);
    expect(sandbox.webhooks.pending()[0]).toMatchObject({ nextAttempt: 2 });
    sandbox.clock.advance('1s');
    expect((await sandbox.webhooks.flush())[0]).toMatchObject({
      attempt: 2,
      status: 'failed',
      httpStatus: 503,
    });
    sandbox.clock.advance('5m');
    expect((await sandbox.webhooks.flush())[0]).toMatchObject({ attempt: 3, status: 'succeeded' });
    expect(hook.received.map((delivery) => delivery.headers['service-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(hook.received.map((delivery) => delivery.headers['service-event-id'])).size).toBe(1);
    expect(new Set(hook.received.map((delivery) => delivery.headers['service-delivery-id'])).size).toBe(1);
    expect(sandbox.webhooks.deliveries().map((attempt) => attempt.status)).toEqual([
      'failed',
      'failed',
      'succeeded',
    ]);
  });

  it('gives up after 9 attempts over about 37 hours; resend makes a new delivery', async () => {
    const sandbox = newSandbox();
    const hook = await receiver(Array(9).fill(500));
    sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'] });
    sandbox.register.rentOut(1, { customerId: 1 });
    const start = sandbox.clock.nowMs();
    const times: number[] = [];
    for (let guard = 0; guard < 20 && sandbox.webhooks.pending().length > 0; guard++) {
      const due = Date.parse(sandbox.webhooks.pending()[0]!.dueAt);
      if (due > sandbox.clock.nowMs()) sandbox.clock.set(due);
      await sandbox.webhooks.flush();
      times.push((sandbox.clock.nowMs() - start) / 60_000);
    }
    expect(times).toEqual([0, 1, 6, 36, 156, 456, 1056, 1656, 2256]);
    expect(sandbox.webhooks.deliveries()).toHaveLength(9);
    const first = sandbox.webhooks.deliveries()[0]!;
    const resent = sandbox.webhooks.resend(first.deliveryId);
    expect(resent).not.toBe(first.deliveryId);
    expect((await sandbox.webhooks.flush())[0]).toMatchObject({
      deliveryId: resent,
      attempt: 1,
      status: 'succeeded',
    });
    expect(hook.received.at(-1)!.headers['service-event-id']).toBe(first.eventId);
  });

  it('treats a redirect, a timeout and a refused connection as failures', async () => {
    const sandbox = newSandbox({ webhookTimeoutMs: 200 });
    const redirecting = await receiver([{ redirect: 'https://hooks.sandbox.invalid/moved' }]);
    const hanging = await receiver(['hang']);
    const gone = await receiver();
    await gone.close();
    for (const url of [redirecting.url, hanging.url, gone.url])
      sandbox.webhooks.addEndpoint({ url, types: ['*'] });
    sandbox.register.rentOut(1, { customerId: 1 });
    const attempts = await sandbox.webhooks.flush();
    expect(attempts.map((attempt) => attempt.error)).toEqual([
      'redirect_302',
      'timeout',
      expect.stringMatching(/^connection_error/),
    ]);
    expect(redirecting.received).toHaveLength(1);
  });

  it('turns an endpoint off after 30 failures in a row with no success for 24 hours', async () => {
    const sandbox = newSandbox();
    const hook = await receiver(Array(100).fill(500));
    const { id } = sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'] });
    for (let index = 0; index < 29; index++) {
      sandbox.register.rentOut(1, { customerId: 1 });
      sandbox.register.returnRental(1);
    }
    await sandbox.webhooks.flush();
    expect(sandbox.webhooks.endpoints()[0]).toMatchObject({ enabled: true, consecutiveFailures: 58 });
    sandbox.clock.advance('24h');
    sandbox.register.rentOut(1, { customerId: 1 });
    await sandbox.webhooks.flush();
    expect(sandbox.webhooks.endpoints()[0]).toMatchObject({ id, enabled: false });
    expect(sandbox.webhooks.pending()).toEqual([]);
    sandbox.register.returnRental(1);
    sandbox.clock.advance('1h');
    expect(await sandbox.webhooks.flush()).toEqual([]);
  });

  it('cancels the pending retries of an endpoint the owner turns off, and sends them no more once it is back on', async () => {
    const sandbox = newSandbox();
    const hook = await receiver([500]);
    const { id } = sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'] });
    sandbox.register.rentOut(1, { customerId: 1 });
    expect((await sandbox.webhooks.flush())[0]).toMatchObject({ attempt: 1, status: 'failed' });
    sandbox.webhooks.setEnabled(id, false);
    expect(sandbox.webhooks.pending()).toEqual([]);
    sandbox.webhooks.setEnabled(id, true);
    sandbox.clock.advance('1m');
    expect(await sandbox.webhooks.flush()).toEqual([]);
    expect(hook.received).toHaveLength(1);
  });

  it('makes no attempt for deliveries whose endpoint was turned off or removed before the flush', async () => {
    const sandbox = newSandbox();
    const [off, removed, kept] = [await receiver(), await receiver(), await receiver()];
    const offId = sandbox.webhooks.addEndpoint({ url: off.url, types: ['*'] }).id;
    const removedId = sandbox.webhooks.addEndpoint({ url: removed.url, types: ['*'] }).id;
    const keptId = sandbox.webhooks.addEndpoint({ url: kept.url, types: ['*'] }).id;
    sandbox.register.rentOut(1, { customerId: 1 });
    sandbox.webhooks.setEnabled(offId, false);
    sandbox.webhooks.removeEndpoint(removedId);
    const attempts = await sandbox.webhooks.flush();
    expect(attempts.map((attempt) => [attempt.endpointId, attempt.status])).toEqual([[keptId, 'succeeded']]);
    expect([off.received, removed.received, kept.received].map((got) => got.length)).toEqual([0, 0, 1]);
    sandbox.clock.advance('40h');
    expect(await sandbox.webhooks.flush()).toEqual([]);
    expect(sandbox.webhooks.deliveries()).toHaveLength(1);
  });

  it('sends only subscribed types, only at the endpoint locations, and dates of birth only when included', async () => {
    const sandbox = newSandbox();
    const north = await receiver();
    const all = await receiver();
    sandbox.webhooks.addEndpoint({ url: north.url, types: ['range.rental.checked_out'], locations: [2] });
    sandbox.webhooks.addEndpoint({ url: all.url, types: ['sale.completed'], includeDateOfBirth: true });
    sandbox.register.rentOut(1, { customerId: 1 });
    sandbox.register.rentOut(8, { customerId: 1 });
    const visit = sandbox.world.state.range.reservations.find((row) => row.status === 'checked_in')!;
    sandbox.register.closeVisit(visit.id, { overtimeCents: 100 });
    await sandbox.webhooks.flush();
    expect(north.received.map((delivery) => JSON.parse(delivery.body).data.object.id)).toEqual([8]);
    const sale = JSON.parse(all.received[0]!.body);
    expect(sale.data.object.customer.date_of_birth).toMatch(/^\d{4}-/);
  });

  it('refuses endpoint URLs the reference refuses, and loopback without allowLoopback', () => {
    const sandbox = newSandbox();
    const add = (url: string) => () => sandbox.webhooks.addEndpoint({ url, types: ['*'] });
    for (const url of [
      'http://hooks.sandbox.invalid/x',
      'https://user:pass@hooks.sandbox.invalid/x',
      'https://10.1.2.3/x',
      'https://192.168.1.10/x',
      'https://172.20.0.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://169.254.10.10/x',
      'https://100.64.0.1/x',
      'https://[fd00::1]/x',
      'not a url',
    ]) {
      expect(add(url), url).toThrow(SandboxUsageError);
    }
    expect(add('https://hooks.sandbox.invalid/x')).not.toThrow();
    expect(add('http://127.0.0.1:8080/x')).not.toThrow();
    expect(add('http://localhost:8080/x')).not.toThrow();
    const strict = newSandbox({ allowLoopback: false });
    expect(() => strict.webhooks.addEndpoint({ url: 'https://127.0.0.1/x', types: ['*'] })).toThrow(
      /loopback/,
    );
  });

  it('sends a ping to one endpoint on Send test, outside the event feed', async () => {
    const sandbox = newSandbox();
    const hook = await receiver();
    const other = await receiver();
    const { id } = sandbox.webhooks.addEndpoint({ url: hook.url, types: ['range.rental.checked_out'] });
    sandbox.webhooks.addEndpoint({ url: other.url, types: ['*'] });
    const deliveryId = sandbox.webhooks.sendTest(id);
    await sandbox.webhooks.flush();
    expect(other.received).toHaveLength(0);
    expect(hook.received[0]!.headers['service-delivery-id']).toBe(deliveryId);
    expect(JSON.parse(hook.received[0]!.body)).toMatchObject({
      type: 'ping',
      data: { object: { object: 'ping' } },
    });
    expect(sandbox.world.events.all()).toHaveLength(0);
  });

  it('allows at most 20 endpoints', () => {
    const sandbox = newSandbox();
    for (let index = 0; index < 20; index++) {
      sandbox.webhooks.addEndpoint({ url: `https://hooks.sandbox.invalid/${index}`, types: ['*'] });
    }
    expect(() =>
      sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/21', types: ['*'] }),
    ).toThrow(/20/);
  });

  it('signs with the old and the new secret during a rotation grace period', async () => {
    const sandbox = newSandbox();
    const hook = await receiver();
    const { id, secret: old } = sandbox.webhooks.addEndpoint({ url: hook.url, types: ['*'] });
    const fresh = sandbox.webhooks.rotateSecret(id, { graceHours: 1 });
    sandbox.register.rentOut(1, { customerId: 1 });
    await sandbox.webhooks.flush();
    const verify = (secret: string, index: number) =>
      verifyWebhook({
        body: hook.received[index]!.body,
        headers: hook.received[index]!.headers,
        secret,
      });
    await expect(verify(old, 0)).resolves.toBeTruthy();
    await expect(verify(fresh, 0)).resolves.toBeTruthy();
    sandbox.clock.advance('1h');
    sandbox.register.returnRental(1);
    await sandbox.webhooks.flush();
    await expect(verify(old, 1)).rejects.toMatchObject({ reason: 'signature_mismatch' });
    await expect(verify(fresh, 1)).resolves.toBeTruthy();
  });
});
