// `shop-mgmt trigger` against a sandbox process: API-made and register-made events reach the sandbox's
// receiver; all 40 event types with their payload shapes; --override and --fixture, and the ones refused
// before any call; an unknown type exits 2 (usage); no sandbox exits 3.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { EVENT_TYPES, type EventType } from '../../src/generated/event-types.js';
import { EVENT_PAYLOAD_SCHEMAS } from '../../src/generated/events.js';
import { builtBin, CliRunner, Receiver, startSandbox } from './helpers.js';

let bin: Awaited<ReturnType<typeof builtBin>>;
const cli = new CliRunner(() => bin.bin);
let hook: Receiver;
const scratch = mkdtempSync(join(tmpdir(), 'shop-mgmt-cli-trigger-'));

beforeAll(async () => {
  bin = await builtBin();
  hook = await new Receiver().start();
}, 120_000);
afterEach(() => cli.killAll());
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
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

  it('lists every event type as made on demand, and refuses an unknown type (exit 2, usage)', async () => {
    const list = await cli.run(['trigger', '--list', '--json']);
    expect(list.code).toBe(0);
    const entries = list.records() as { type: string; supported: boolean; reason?: string }[];
    expect(entries.map((entry) => entry.type)).toEqual([...EVENT_TYPES]);
    expect(entries.filter((entry) => !entry.supported)).toEqual([]);
    expect(entries).toHaveLength(40);

    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const unknown = await cli.run(['trigger', 'made.up'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.join('\n')).toMatch(/not a known event type/);
  });

  it('makes all 40 event types (one fixture), each delivered signed with the payload shape of its type', async () => {
    hook.received.length = 0;
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    hook.secret = sandbox.webhookSecret;
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const fixture = join(scratch, 'all-types.json');
    writeFileSync(fixture, JSON.stringify({ steps: EVENT_TYPES.map((type) => ({ trigger: type })) }));
    const run = await cli.run(['trigger', '--fixture', fixture, '--json'], env, 60_000);
    expect(run.code, run.stderr.join('\n')).toBe(0);
    const results = run.records() as { type: string; did: string; events: { id: string; type: string }[] }[];
    expect(results.map((result) => result.type)).toEqual([...EVENT_TYPES]);
    for (const result of results) {
      expect(
        result.events.map((event) => event.type),
        result.did,
      ).toContain(result.type);
    }
    const wanted = results.flatMap((result) => result.events.filter((event) => event.type === result.type));
    await hook.until(
      (got) => wanted.every((event) => got.some((delivery) => delivery.event.id === event.id)),
      20_000,
    );
    for (const event of wanted) {
      const delivery = hook.received.find((got) => got.event.id === event.id)!;
      expect(delivery.verified, event.type).toBe(true);
      expect(delivery.headers['service-event']).toBe(event.type);
      const payload = (delivery.event as unknown as { data: { object: unknown } }).data.object;
      const checked = EVENT_PAYLOAD_SCHEMAS[event.type as EventType].safeParse(payload);
      expect(checked.success, `${event.type}: ${JSON.stringify(checked.error?.issues[0])}`).toBe(true);
    }
  });

  it('lays --override values over the event it makes, checked against the event schema before any call', async () => {
    hook.received.length = 0;
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    hook.secret = sandbox.webhookSecret;
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const run = await cli.run(
      [
        'trigger',
        'range.reservation.booked',
        '--override',
        'party_size=3',
        '--override=contact.email=override@example.com',
        '--override',
        'data.object.storefront_order_id=SO-CLI-1',
        '--json',
      ],
      env,
    );
    expect(run.code, run.stderr.join('\n')).toBe(0);
    const [result] = run.records() as { events: { id: string; type: string }[]; overridden: boolean }[];
    expect(result!.overridden).toBe(true);
    const booked = result!.events.find((event) => event.type === 'range.reservation.booked')!;
    await hook.until((got) => got.some((delivery) => delivery.event.id === booked.id));
    const delivery = hook.received.find((got) => got.event.id === booked.id)!;
    expect(delivery.verified).toBe(true);
    const payload = (delivery.event as unknown as { data: { object: Record<string, unknown> } }).data.object;
    expect(payload).toMatchObject({
      party_size: 3,
      storefront_order_id: 'SO-CLI-1',
      contact: { email: 'override@example.com' },
    });
    expect(EVENT_PAYLOAD_SCHEMAS['range.reservation.booked'].safeParse(payload).success).toBe(true);

    // Refused before any call: no sandbox listens at port 9, yet the answer is a usage error, not exit 3.
    const nowhere = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: 'http://127.0.0.1:9' };
    const unknownField = await cli.run(
      ['trigger', 'range.reservation.booked', '--override', 'party_sise=3'],
      nowhere,
    );
    expect(unknownField.code).toBe(2);
    expect(unknownField.stderr.join('\n')).toMatch(
      /has no field "party_sise" \(it has object, id, .*party_size/,
    );
    const badValue = await cli.run(
      ['trigger', 'range.reservation.booked', '--override', 'party_size=many'],
      nowhere,
    );
    expect(badValue.code).toBe(2);
    expect(badValue.stderr.join('\n')).toMatch(/party_size: must be a whole number, got many/);
    const noPath = await cli.run(['trigger', 'sale.completed', '--override', 'status'], nowhere);
    expect(noPath.code).toBe(2);
    expect(noPath.stderr.join('\n')).toMatch(/--override takes field=value/);
  });

  it('runs a fixture step by step, and refuses a bad one whole before running any step', async () => {
    hook.received.length = 0;
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const good = join(scratch, 'checkout.json');
    writeFileSync(
      good,
      JSON.stringify({
        steps: [
          { trigger: 'customer.created' },
          { trigger: 'sale.completed', override: { status: 'awaiting_transfer' } },
          { trigger: 'sale.refunded' },
        ],
      }),
    );
    const run = await cli.run(['trigger', '--fixture', good, '--json'], env);
    expect(run.code, run.stderr.join('\n')).toBe(0);
    const results = run.records() as { type: string; overridden?: boolean }[];
    expect(results.map((result) => result.type)).toEqual([
      'customer.created',
      'sale.completed',
      'sale.refunded',
    ]);
    expect(results[1]!.overridden).toBe(true);

    const bad = join(scratch, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        steps: [
          { trigger: 'coupon.created' },
          { trigger: 'sale.completd' },
          { trigger: 'coupon.updated', override: { percent_off: 'lots' }, wait: 5 },
        ],
      }),
    );
    // Counted in the shop's event feed, which a trigger writes before its command exits (the receiver's
    // count is no measure: deliveries of the good fixture may still be on their way on a loaded machine).
    const shop = new ShopClient({ apiKey: sandbox.key, baseUrl: sandbox.url, maxRetries: 0 });
    const feed = async () => (await shop.events.list({ limit: 100 }).toArray()).length;
    const before = await feed();
    const refused = await cli.run(['trigger', '--fixture', bad], env);
    expect(refused.code).toBe(2);
    const text = refused.stderr.join('\n');
    expect(text).toMatch(/was not run/);
    expect(text).toMatch(/step 2: "sale\.completd" is not an event type the sandbox makes/);
    expect(text).toMatch(/step 3: unknown field "wait"/);
    // Step 1 was valid, yet nothing ran.
    expect(await feed()).toBe(before);
    const notJson = join(scratch, 'not.json');
    writeFileSync(notJson, '{ steps: ');
    expect((await cli.run(['trigger', '--fixture', notJson], env)).code).toBe(2);
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
