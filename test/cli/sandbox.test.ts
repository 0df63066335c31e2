// `shop-mgmt sandbox` as a process: served over HTTP, deliveries to a real receiver, --state across a
// restart, bad state files refused, clean shutdown on SIGINT and SIGTERM.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { cliSuite, startSandbox } from './helpers.js';

const { cli, receiver, scratch } = cliSuite('sandbox');

describe('shop-mgmt sandbox', () => {
  it('serves the API and delivers signed webhooks to --forward-to without a flush', async () => {
    const hook = await receiver();
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.key).toMatch(/^sk_test_/);
    expect(sandbox.webhookSecret).toMatch(/^whsec_/);
    hook.secret = sandbox.webhookSecret;

    const shop = new ShopClient({ apiKey: sandbox.key, baseUrl: sandbox.url, maxRetries: 0 });
    const coupon = await shop.coupons.create({ code: 'CLI10', name: 'CLI test', percent_off: 10 });
    await hook.until((got) => got.some((delivery) => delivery.event.type === 'coupon.created'));
    const delivery = hook.received.find((got) => got.event.type === 'coupon.created')!;
    expect(delivery.verified).toBe(true);
    expect(delivery.headers['service-event']).toBe('coupon.created');
    expect(delivery.headers['service-attempt']).toBe('1');
    expect((delivery.event as unknown as { data: { object: { id: number } } }).data.object.id).toBe(
      coupon.id,
    );
    // The process prints the attempt it made.
    await sandbox.process.until(() =>
      sandbox.process
        .records()
        .find((record) => record.event === 'delivery' && record.eventType === 'coupon.created'),
    );
    expect(await sandbox.process.stop('SIGTERM')).toBe(0);
  });

  it('keeps the shop in --state across a restart, and refuses a damaged or unknown file', async () => {
    const hook = await receiver();
    const state = join(scratch(), 'shop.json');
    const first = await startSandbox(cli, ['--forward-to', hook.url, '--state', state]);
    const shop = new ShopClient({ apiKey: first.key, baseUrl: first.url, maxRetries: 0 });
    await shop.coupons.create({ code: 'KEEPME', name: 'Kept', percent_off: 5 });
    expect(await first.process.stop('SIGINT')).toBe(0);
    expect(statSync(state).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(saved).toMatchObject({ format: 'shop-mgmt-sandbox-state', version: 1 });

    const second = await startSandbox(cli, ['--forward-to', hook.url, '--state', state]);
    expect(second.webhookSecret).toBe(first.webhookSecret);
    // The first process's key still works, and the feed still holds the event of the first run.
    const again = new ShopClient({ apiKey: first.key, baseUrl: second.url, maxRetries: 0 });
    const events = await again.events.list({ type: 'coupon.created' }).toArray();
    expect(events.map((event) => (event.data.object as { code?: string }).code)).toContain('KEEPME');
    // Ids go on from where they were: a second coupon does not reuse the first one's id.
    const next = await again.coupons.create({ code: 'NEXT', name: 'Next', percent_off: 5 });
    expect(next.id).toBeGreaterThan((events.at(-1)!.data.object as { id: number }).id);
    expect(await second.process.stop('SIGTERM')).toBe(0);

    writeFileSync(state, '{"format":"shop-mgmt-sandbox-state","version":99}');
    const future = await cli.run(['sandbox', '--port', '0', '--state', state]);
    expect(future.code).toBe(2);
    expect(future.stderr.join('\n')).toMatch(/version 99 is not one this shop-mgmt reads/);

    writeFileSync(state, '{"format":"shop-mgmt-sandb');
    const broken = await cli.run(['sandbox', '--port', '0', '--state', state]);
    expect(broken.code).toBe(2);
    expect(broken.stderr.join('\n')).toMatch(/not a readable JSON sandbox state/);
  });

  it('bulk-seeds --records and prints a key limited by --permissions and --locations', async () => {
    const sandbox = await startSandbox(cli, [
      '--records',
      'reservations=2500',
      '--permissions',
      'range:read',
      '--locations',
      '2',
    ]);
    const shop = new ShopClient({ apiKey: sandbox.key, baseUrl: sandbox.url, maxRetries: 0 });
    const page = await shop.range.reservations.list({ limit: 200 });
    expect(page.data.every((reservation) => reservation.location_id === 2)).toBe(true);
    let count = 0;
    for await (const _ of shop.range.reservations.list({ limit: 200 })) count++;
    // Location 2's share of 2,500 spread over the active lanes of both locations, plus its seeded bookings.
    expect(count).toBeGreaterThan(500);
    await expect(shop.coupons.create({ code: 'NOPE', name: 'No', percent_off: 5 })).rejects.toMatchObject({
      status: 403,
    });
  });

  it('with --clock 60x, sends the 1-minute retry of a failed delivery about a second later', async () => {
    const hook = await receiver();
    hook.answer = (count) => (count === 1 ? 503 : 200);
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url, '--clock', '60x']);
    hook.secret = sandbox.webhookSecret;
    const shop = new ShopClient({ apiKey: sandbox.key, baseUrl: sandbox.url, maxRetries: 0 });
    await shop.coupons.create({ code: 'FAST', name: 'Fast', percent_off: 5 });
    await hook.until((got) => got.length === 2, 8_000);
    expect(hook.received.map((delivery) => delivery.headers['service-attempt'])).toEqual(['1', '2']);
    expect(hook.received[1]!.headers['service-delivery-id']).toBe(
      hook.received[0]!.headers['service-delivery-id'],
    );
    expect(hook.received.every((delivery) => delivery.verified)).toBe(true);
    // The process logs an attempt once the receiver's answer is in, which can be after the receiver saw it.
    const attempts = await sandbox.process.until(() => {
      const logged = sandbox.process.records().filter((record) => record.event === 'delivery');
      return logged.length >= 2 && logged;
    }, 8_000);
    expect(attempts.map((record) => record.httpStatus)).toEqual([503, 200]);
  });

  it('refuses bad flags with exit code 2', async () => {
    const clock = await cli.run(['sandbox', '--clock', 'sometimes']);
    expect(clock.code).toBe(2);
    expect(clock.stderr.join('\n')).toMatch(/--clock must be frozen, real or a speed such as 60x/);
    const records = await cli.run(['sandbox', '--port', '0', '--records', 'unicorns=5']);
    expect(records.code).toBe(2);
    expect(records.stderr.join('\n')).toMatch(/bulk-seeds reservations and customers only/);
  });
});
