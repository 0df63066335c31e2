// `shop-mgmt trigger` against a sandbox process: API-made and register-made events reach the sandbox's
// receiver; types it cannot make exit 4 with the reason; no sandbox exits 3.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/generated/event-types.js';
import { builtBin, CliRunner, Receiver, startSandbox } from './helpers.js';

let bin: Awaited<ReturnType<typeof builtBin>>;
const cli = new CliRunner(() => bin.bin);
let hook: Receiver;

beforeAll(async () => {
  bin = await builtBin();
  hook = await new Receiver().start();
}, 120_000);
afterEach(() => cli.killAll());
afterAll(async () => {
  await hook?.close();
  bin?.cleanup();
});

describe('shop-mgmt trigger', () => {
  it.each([
    ['range.reservation.booked', ['range.reservation.booked']],
    [
      'range.reservation.completed',
      ['range.reservation.booked', 'range.reservation.checked_in', 'range.reservation.completed'],
    ],
    ['range.rental.checked_in', ['range.rental.checked_out', 'range.rental.checked_in']],
    ['sale.completed', ['sale.completed', 'inventory.changed']],
    ['receiving.posted', ['purchase_order.created', 'purchase_order.submitted', 'receiving.posted']],
    ['membership.updated', ['membership.created', 'sale.completed', 'membership.updated']],
    ['customer.created', ['customer.created', 'range.reservation.booked']],
    ['invoice.updated', ['account.payment_received', 'invoice.updated']],
  ])('makes %s, and the sandbox delivers what it recorded', async (type, expected) => {
    hook.received.length = 0;
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    hook.secret = sandbox.webhookSecret;
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const run = await cli.run(['trigger', type, '--json'], env);
    expect(run.code, run.stderr.join('\n')).toBe(0);
    const [result] = run.records() as { type: string; did: string; events: { id: string; type: string }[] }[];
    expect(result!.type).toBe(type);
    expect(result!.did).toMatch(/\((API|register)\)$/);
    for (const made of expected) expect(result!.events.map((event) => event.type)).toContain(made);
    const ids = result!.events.map((event) => event.id);
    await hook.until((got) => ids.every((id) => got.some((delivery) => delivery.event.id === id)));
    expect(hook.received.every((delivery) => delivery.verified)).toBe(true);
  });

  it('lists every catalog type, and refuses one it cannot make with its reason (exit 4)', async () => {
    const list = await cli.run(['trigger', '--list', '--json']);
    expect(list.code).toBe(0);
    const entries = list.records() as { type: string; supported: boolean; reason?: string }[];
    expect(entries.map((entry) => entry.type)).toEqual([...EVENT_TYPES]);
    expect(
      entries.filter((entry) => !entry.supported).every((entry) => (entry.reason ?? '').length > 10),
    ).toBe(true);

    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const unsupported = await cli.run(['trigger', 'product.created'], env);
    expect(unsupported.code).toBe(4);
    expect(unsupported.stderr.join('\n')).toMatch(
      /cannot make product\.created: the API has no product creation/,
    );
    const unknown = await cli.run(['trigger', 'made.up'], env);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr.join('\n')).toMatch(/not an event type of the catalog/);
  });

  it('needs a key the sandbox issued, and a sandbox to talk to', async () => {
    const sandbox = await startSandbox(cli);
    const wrongKey = await cli.run(['trigger', 'sale.completed'], {
      SHOP_API_KEY: 'sk_test_somebody_else_0000',
      SHOP_API_BASE_URL: sandbox.url,
    });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr.join('\n')).toMatch(/needs a key this sandbox issued/);
    await sandbox.process.stop();
    const gone = await cli.run(['trigger', 'sale.completed'], {
      SHOP_API_KEY: sandbox.key,
      SHOP_API_BASE_URL: sandbox.url,
    });
    expect(gone.code).toBe(3);
    expect(gone.stderr.join('\n')).toMatch(/cannot reach a sandbox/);
  });
});
