// A sandbox behind listen() can run for days of its own clock: what it keeps must stay bounded.
import { describe, expect, it } from 'vitest';
import { SandboxUsageError } from '../../src/testing/index.js';
import { call, newSandbox } from './helpers.js';

describe('sandbox state over a long run', () => {
  it('sweeps Idempotency-Key entries once their 24 hours are over, oldest first', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    // A 422 is stored like any answer below 500, so an empty sign-up claims and keeps its key.
    const post = (idempotencyKey: string) =>
      call(sandbox, 'POST', '/v1/memberships', {
        key,
        body: {},
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    await post('a');
    sandbox.clock.advance('12h');
    await post('b');
    sandbox.clock.advance('13h');
    // 'a' expired an hour ago: used again, it is a new entry, younger than 'b'.
    expect((await post('a')).headers.get('Idempotent-Replayed')).toBeNull();
    expect(sandbox.world.idempotency.size).toBe(2);
    sandbox.clock.advance('12h');
    await post('c');
    expect(sandbox.world.idempotency.size).toBe(2);
    for (let index = 0; index < 50; index++) await post(`bulk-${index}`);
    expect(sandbox.world.idempotency.size).toBe(52);
    sandbox.clock.advance('24h');
    await post('last');
    expect(sandbox.world.idempotency.size).toBe(1);
  });

  it('drops events older than the 30-day feed when it records new ones', () => {
    const sandbox = newSandbox();
    sandbox.webhooks.addEndpoint({
      url: 'https://hooks.sandbox.invalid/rentals',
      types: ['range.rental.checked_out', 'range.rental.checked_in'],
    });
    sandbox.register.rentOut(1, { customerId: 1 });
    sandbox.clock.advance('29d');
    sandbox.register.returnRental(1);
    sandbox.clock.advance('1d');
    sandbox.clock.advance('1ms');
    sandbox.register.rentOut(1, { customerId: 1 });
    expect(sandbox.world.events.all().map((event) => event.envelope.type)).toEqual([
      'range.rental.checked_in',
      'range.rental.checked_out',
    ]);
  });

  it('keeps finished deliveries out of the queue and the last 1,000 attempts in the log', async () => {
    let posted = 0;
    const sandbox = newSandbox({
      fetch: async () => {
        posted += 1;
        return new Response('ok');
      },
    });
    sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/all', types: ['*'] });
    for (let index = 0; index < 600; index++) {
      sandbox.register.rentOut(1, { customerId: 1 });
      sandbox.register.returnRental(1);
    }
    const attempts = await sandbox.webhooks.flush();
    expect([attempts.length, posted]).toEqual([1200, 1200]);
    expect(sandbox.world.deliveries.held()).toEqual({ waiting: 0, finished: 1000, attempts: 1000 });

    const log = sandbox.webhooks.deliveries();
    expect(log).toHaveLength(1000);
    expect(log[0]).toEqual(attempts[200]);
    expect(log.at(-1)).toEqual(attempts[1199]);
    expect(() => sandbox.webhooks.resend(attempts[0]!.deliveryId)).toThrow(SandboxUsageError);
    const resent = sandbox.webhooks.resend(attempts[1199]!.deliveryId);
    expect(sandbox.world.deliveries.held().waiting).toBe(1);
    expect(await sandbox.webhooks.flush()).toEqual([expect.objectContaining({ deliveryId: resent })]);
  });

  it('keeps failed-key counts only for addresses that failed in the last minute', async () => {
    const sandbox = newSandbox();
    const key = sandbox.createKey();
    for (let index = 0; index < 40; index++) {
      await call(sandbox, 'GET', '/v1/me', { key, headers: { 'X-Forwarded-For': `203.0.113.${index}` } });
    }
    expect(sandbox.world.keys.trackedAddresses).toBe(0);
    await call(sandbox, 'GET', '/v1/me', {
      key: 'sk_sandbox_unknown',
      headers: { 'X-Forwarded-For': '198.51.100.7' },
    });
    expect(sandbox.world.keys.trackedAddresses).toBe(1);
    sandbox.clock.advance('2m');
    await call(sandbox, 'GET', '/v1/me', { key, headers: { 'X-Forwarded-For': '198.51.100.7' } });
    expect(sandbox.world.keys.trackedAddresses).toBe(0);
  });
});
