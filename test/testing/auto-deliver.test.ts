// autoDeliver: webhooks go out without `webhooks.flush()`, so a partner serving `listen()` on a real clock
// receives them as it would from the service. Over real HTTP: the sandbox on 127.0.0.1, a loopback receiver.
import { afterEach, describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { startReceiver } from '../e2e/support/receiver.js';
import { until } from '../e2e/support/wait.js';
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

async function serving(sandbox: ReturnType<typeof newSandbox>) {
  const server = await sandbox.listen();
  closers.push(server.close);
  return new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url, logLevel: 'off' });
}

const booking = {
  resource_ids: [1],
  starts_at: '2026-10-01T16:00:00Z',
  ends_at: '2026-10-01T17:00:00Z',
  party_size: 1,
  customer_id: 1,
};

describe('autoDeliver', () => {
  it("is on with clock 'real': a booking through listen() reaches the receiver with no flush()", async () => {
    const sandbox = newSandbox({ clock: 'real' });
    const hook = await receiver();
    const { secret } = sandbox.webhooks.addEndpoint({ url: hook.url, types: ['range.reservation.booked'] });
    const shop = await serving(sandbox);

    const reservation = await shop.range.reservations.create(booking);

    await until(() => sandbox.webhooks.deliveries().length === 1, 'the booking is delivered');
    const [delivery] = hook.received;
    const event = await verifyWebhook({
      body: delivery!.body,
      headers: delivery!.headers,
      secret,
    });
    expect(event).toMatchObject({
      type: 'range.reservation.booked',
      data: { object: { id: reservation.id } },
    });
    expect(sandbox.webhooks.deliveries()).toEqual([
      expect.objectContaining({ eventId: event.id, attempt: 1, status: 'succeeded' }),
    ]);
  });

  it('sends retries on a timer while listening, when the clock reaches them, with no request', async () => {
    const sandbox = newSandbox({ autoDeliver: true });
    const hook = await receiver([503]);
    sandbox.webhooks.addEndpoint({ url: hook.url, types: ['range.reservation.booked'] });
    const shop = await serving(sandbox);

    await shop.range.reservations.create(booking);
    await until(() => sandbox.webhooks.deliveries().length === 1, 'the first attempt');
    expect(sandbox.webhooks.deliveries()[0]).toMatchObject({ attempt: 1, status: 'failed', httpStatus: 503 });

    sandbox.clock.advance('1m');
    await until(() => hook.received.length === 2, 'the retry');
    expect(hook.received[1]!.headers['service-attempt']).toBe('2');
    await until(() => sandbox.webhooks.deliveries().length === 2, 'the retry is logged');
    expect(sandbox.webhooks.deliveries()[1]).toMatchObject({ attempt: 2, status: 'succeeded' });
  });

  it('delivers what register actions and the clock record, in-process too (no server)', async () => {
    const sandbox = newSandbox({ autoDeliver: true });
    const hook = await receiver();
    sandbox.webhooks.addEndpoint({
      url: hook.url,
      types: ['range.rental.checked_in', 'range.rental.out_of_service', 'membership.updated'],
    });
    sandbox.register.rentOut(1, { customerId: 1 });
    sandbox.register.returnRental(1, { condition: 'Damaged: loose sight' });
    await until(() => hook.received.length === 2, 'both events of the damaged return');
    expect(hook.received.map((delivery) => delivery.headers['service-event']).sort()).toEqual([
      'range.rental.checked_in',
      'range.rental.out_of_service',
    ]);
    sandbox.clock.advance('3d'); // the nightly run renews membership 1
    const renewal = () =>
      hook.received
        .map((delivery) => JSON.parse(delivery.body).data.object)
        .find((object) => object.id === 1 && object.change === 'renewed');
    await until(() => renewal() !== undefined, 'the renewal of membership 1');
    expect(renewal()).toMatchObject({ object: 'membership', status: 'active' });
  });

  it('leaves flush() a barrier: it waits for deliveries autoDeliver already started', async () => {
    const sandbox = newSandbox({ autoDeliver: true });
    const hook = await receiver();
    sandbox.webhooks.addEndpoint({ url: hook.url, types: ['range.rental.checked_out'] });
    sandbox.register.rentOut(1, { customerId: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0)); // autoDeliver's turn: the attempt is under way
    const attempts = await sandbox.webhooks.flush();
    expect(attempts).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect(hook.received).toHaveLength(1);
  });

  it('is off with the frozen clock (and when turned off): nothing goes out until flush()', async () => {
    for (const options of [{}, { clock: 'real' as const, autoDeliver: false }]) {
      const sandbox = newSandbox(options);
      const hook = await receiver();
      sandbox.webhooks.addEndpoint({ url: hook.url, types: ['range.reservation.booked'] });
      const shop = await serving(sandbox);
      await shop.range.reservations.create(booking);
      await shop.range.resources.list({ limit: 1 });
      expect(sandbox.webhooks.pending()).toHaveLength(1);
      expect(hook.received).toHaveLength(0);
      await sandbox.webhooks.flush();
      expect(hook.received).toHaveLength(1);
    }
  });
});
