// `shop-mgmt listen` against a `shop-mgmt sandbox` process: the feed delivered to a receiver that verifies
// with the printed secret, a receiver that fails then recovers, a restart that resumes without re-sending,
// and `replay` with a new delivery id and the next attempt number.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSuite, startSandbox } from './helpers.js';

const { cli, receiver, scratch } = cliSuite('listen');

/** A sandbox process (its own endpoint gives the feed its types) and the env that points the CLI at it. */
async function setup(name: string) {
  const sandboxHook = await receiver();
  const sandbox = await startSandbox(cli, ['--forward-to', sandboxHook.url]);
  const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
  const local = await receiver();
  const checkpoint = join(scratch(), `${name}.json`);
  const printed = await cli.run(
    ['listen', '--forward-to', local.url, '--checkpoint', checkpoint, '--print-secret'],
    env,
  );
  expect(printed.code).toBe(0);
  local.secret = printed.stdout[0]!;
  expect(local.secret).toMatch(/^whsec_/);
  const listen = () =>
    cli.start(
      ['listen', '--forward-to', local.url, '--checkpoint', checkpoint, '--interval', '1', '--json'],
      env,
    );
  const trigger = async (type: string) => {
    const run = await cli.run(['trigger', type, '--json'], env);
    expect(run.code, run.stderr.join('\n')).toBe(0);
    return run.records()[0] as { events: { id: string; type: string }[] };
  };
  return { env, local, checkpoint, listen, trigger };
}

describe('shop-mgmt listen', () => {
  it('forwards feed events signed with the printed secret and the service headers', async () => {
    const { local, listen, trigger } = await setup('forwards');
    const listening = listen();
    await listening.until(() => listening.records().find((record) => record.event === 'listening'));
    // What a feed cannot give is said on stderr, and the key is never printed whole.
    await listening.until(() => listening.stderr.join('\n').includes('polls are throttled'));
    expect(listening.stderr.join('\n')).toMatch(/up to 1s late/);
    expect(listening.stderr.join('\n')).toMatch(/only types some webhook endpoint of the shop subscribes/);
    expect(JSON.stringify(listening.records())).toMatch(/sk_test_\[redacted\]/);

    const made = await trigger('coupon.created');
    const id = made.events[0]!.id;
    await local.until((got) => got.some((delivery) => delivery.event.id === id));
    const delivery = local.received.find((got) => got.event.id === id)!;
    expect(delivery.verified).toBe(true);
    expect(delivery.headers).toMatchObject({
      'service-event': 'coupon.created',
      'service-event-id': id,
      'service-attempt': '1',
    });
    expect(delivery.headers['service-delivery-id']).toMatch(/^whd_local_/);
    const line = await listening.until(() =>
      listening.records().find((record) => record.event === 'delivery' && record.eventId === id),
    );
    expect(line).toMatchObject({ eventType: 'coupon.created', status: 200, attempt: 1 });
    expect(typeof line.ms).toBe('number');
    // Nothing from before listen started was sent.
    expect(local.received.every((got) => got.event.id === id)).toBe(true);
  });

  it('against a sandbox, delivers at once: the live log rings, no waiting for the next poll', async () => {
    const { env, local, checkpoint, trigger } = await setup('doorbell');
    // A poll a minute: only the sandbox's live log can bring the event within seconds.
    const listening = cli.start(
      ['listen', '--forward-to', local.url, '--checkpoint', checkpoint, '--interval', '60', '--json'],
      env,
    );
    await listening.until(() => listening.stderr.join('\n').includes('its live log rings'));
    await listening.until(() => listening.records().find((record) => record.event === 'listening'));
    const id = (await trigger('coupon.created')).events[0]!.id;
    await local.until((got) => got.some((delivery) => delivery.event.id === id), 10_000);
    expect(local.received.find((delivery) => delivery.event.id === id)!.verified).toBe(true);
    const second = (await trigger('coupon.created')).events[0]!.id;
    await local.until((got) => got.some((delivery) => delivery.event.id === second), 10_000);
  });

  it('retries a failing receiver with back-off until it recovers', async () => {
    const { local, listen, trigger } = await setup('recovers');
    local.answer = (count) => (count <= 2 ? 500 : 200);
    const listening = listen();
    await listening.until(() => listening.records().find((record) => record.event === 'listening'));
    const id = (await trigger('location.updated')).events[0]!.id;
    await local.until((got) => got.filter((delivery) => delivery.event.id === id).length === 3, 15_000);
    const tries = local.received.filter((delivery) => delivery.event.id === id);
    expect(tries.map((delivery) => delivery.headers['service-attempt'])).toEqual(['1', '2', '3']);
    expect(tries.every((delivery) => delivery.verified)).toBe(true);
    const lines = await listening.until(() => {
      const found = listening
        .records()
        .filter((record) => record.event === 'delivery' && record.eventId === id);
      return found.length === 3 && found;
    });
    expect(lines.map((record) => record.status)).toEqual([500, 500, 200]);
  });

  it('resumes from its checkpoint after Ctrl-C without sending anything twice, and replay sends the next attempt', async () => {
    const { env, local, checkpoint, listen, trigger } = await setup('resumes');
    const first = listen();
    await first.until(() => first.records().find((record) => record.event === 'listening'));
    const before = (await trigger('coupon.created')).events[0]!.id;
    await local.until((got) => got.some((delivery) => delivery.event.id === before));
    expect(await first.stop('SIGINT')).toBe(0);
    expect(first.stderr.join('\n')).toMatch(/checkpoint is saved/);

    // Made while nobody listens: the next run must send it, and only it.
    const during = (await trigger('location.updated')).events[0]!.id;
    const second = listen();
    await local.until((got) => got.some((delivery) => delivery.event.id === during));
    await trigger('coupon.created');
    await local.until((got) => got.length === 3);
    const ids = local.received.map((delivery) => delivery.event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 2)).toEqual([before, during]);
    expect(await second.stop('SIGTERM')).toBe(0);

    const replay = await cli.run(
      ['replay', before, '--forward-to', local.url, '--checkpoint', checkpoint, '--json'],
      env,
    );
    expect(replay.code, replay.stderr.join('\n')).toBe(0);
    const replayed = local.received.at(-1)!;
    expect(replayed.event.id).toBe(before);
    expect(replayed.verified).toBe(true);
    expect(replayed.headers['service-attempt']).toBe('2');
    expect(replayed.headers['service-delivery-id']).not.toBe(
      local.received[0]!.headers['service-delivery-id'],
    );
  });

  it('starts after an event with --since evt_..., and forwards only --events types', async () => {
    const { env, local, checkpoint, trigger } = await setup('since');
    const mark = (await trigger('coupon.created')).events[0]!.id;
    const after = (await trigger('location.updated')).events[0]!.id;
    await trigger('coupon.created');
    const listening = cli.start(
      [
        'listen',
        '--forward-to',
        local.url,
        '--checkpoint',
        checkpoint,
        '--interval',
        '1',
        '--json',
        '--since',
        mark,
        '--events',
        'location.updated',
      ],
      env,
    );
    await local.until((got) => got.some((delivery) => delivery.event.id === after));
    // One more poll, then nothing else may have come: the coupons are filtered out, the mark passed.
    await trigger('location.updated');
    await local.until((got) => got.length === 2);
    expect(local.received.map((delivery) => delivery.event.type)).toEqual([
      'location.updated',
      'location.updated',
    ]);
    expect(local.received[0]!.event.id).toBe(after);
    await listening.stop();

    const bad = await cli.run(
      ['listen', '--forward-to', local.url, '--checkpoint', checkpoint, '--since', 'yesterday'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr.join('\n')).toMatch(/--since must be a duration such as 2h/);
  });

  it('exits 2 without a key, and 1 when the shop refuses the key', async () => {
    const local = await receiver();
    const checkpoint = join(scratch(), 'nokey.json');
    const missing = await cli.run(['listen', '--forward-to', local.url, '--checkpoint', checkpoint]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.join('\n')).toMatch(/set SHOP_API_KEY/);
    const sandbox = await startSandbox(cli);
    const refused = await cli.run(['listen', '--forward-to', local.url, '--checkpoint', checkpoint], {
      SHOP_API_KEY: 'sk_test_not_a_real_key_0123456789',
      SHOP_API_BASE_URL: sandbox.url,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr.join('\n')).toMatch(/refused the key/);
    expect(refused.stderr.join('\n')).not.toContain('sk_test_not_a_real_key_0123456789');
  });

  it('saves its start position at once: killed or stopped before its first delivery, the next run sends what came since', async () => {
    const { local, listen, trigger } = await setup('early-stop');
    // Killed (SIGKILL) before any event: only its start position was saved.
    const first = listen();
    await first.until(() => first.records().find((record) => record.event === 'listening'));
    first.child.kill('SIGKILL');
    await first.exited;
    const whileDown = (await trigger('coupon.created')).events[0]!.id;

    // Stopped cleanly (SIGTERM) before its first successful delivery: the receiver refuses everything.
    local.answer = () => 500;
    const second = listen();
    await local.until((got) => got.some((delivery) => delivery.event.id === whileDown));
    expect(await second.stop('SIGTERM')).toBe(0);
    const afterStop = (await trigger('location.updated')).events[0]!.id;

    local.answer = () => 200;
    const third = listen();
    await local.until(
      (got) =>
        got.some((delivery) => delivery.event.id === afterStop) &&
        got.filter((delivery) => delivery.event.id === whileDown).length >= 2,
      15_000,
    );
    expect(await third.stop('SIGTERM')).toBe(0);
  });

  it('writes the feed into a SQLite inbox with --inbox instead of forwarding', async () => {
    const { env, checkpoint, trigger } = await setup('inbox');
    const file = join(scratch(), 'listen-inbox.db');
    const listening = cli.start(
      ['listen', '--inbox', file, '--checkpoint', checkpoint, '--interval', '1', '--json'],
      env,
    );
    await listening.until(() => listening.records().find((record) => record.event === 'listening'));
    const id = (await trigger('coupon.created')).events[0]!.id;
    const line = await listening.until(() =>
      listening.records().find((record) => record.event === 'inbox' && record.eventId === id),
    );
    expect(line).toMatchObject({ eventType: 'coupon.created', added: 'added' });
    expect(await listening.stop('SIGTERM')).toBe(0);
    const { SqliteInboxStore } = await import('../../src/sync/inbox/sqlite.js');
    const { Inbox } = await import('../../src/sync/inbox/inbox.js');
    const store = await SqliteInboxStore.open(file);
    try {
      expect(await new Inbox(store).get(id)).toMatchObject({ status: 'pending', source: 'listen' });
    } finally {
      await store.close();
    }
    const neither = await cli.run(['listen', '--checkpoint', checkpoint], env);
    expect(neither.code).toBe(2);
    expect(neither.stderr.join('\n')).toMatch(/--forward-to <url> or --inbox/);
  });
});
