// Issue 32, as processes against a sandbox process: `example receiver` verifies and logs what listen
// forwards (item 2); listen's first run starts after the events already in the feed, whatever the shop's
// clock says; a checkpoint of another shop (another URL, or a sandbox whose clock is behind it) is dropped
// with a message; a replay while listen runs stays done; send says which secret signs (item 6).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliProcess, cliSuite, startSandbox } from './helpers.js';

const { cli, scratch, receiver } = cliSuite('listen-start');

/** Triggers `type` and returns the id of the event of that type it made. */
async function trigger(env: Record<string, string>, type: string): Promise<string> {
  const run = await cli.run(['trigger', type, '--json'], env);
  expect(run.code, run.stderr.join('\n')).toBe(0);
  const [result] = run.records() as { events: { id: string; type: string }[] }[];
  const made = result!.events.find((event) => event.type === type);
  expect(made, JSON.stringify(result)).toBeDefined();
  return made!.id;
}

function startListen(env: Record<string, string>, forwardTo: string, checkpoint: string): CliProcess {
  return cli.start(
    ['listen', '--forward-to', forwardTo, '--checkpoint', checkpoint, '--interval', '1', '--json'],
    env,
  );
}

async function listening(listen: CliProcess): Promise<void> {
  await listen.until(() => listen.records().some((record) => record.event === 'listening'), 20_000);
}

describe('example receiver', () => {
  it('verifies with the secret of listen and logs the event listen forwards; refuses another secret', async () => {
    const hook = await receiver(); // the sandbox's own endpoint, so that it records events
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const checkpoint = join(scratch(), 'receiver.json');
    const example = cli.start(['example', 'receiver', '--port', '0', '--checkpoint', checkpoint, '--json']);
    const ready = await example.until(() => example.records().find((record) => record.event === 'ready'));
    expect(String(ready.url)).toMatch(/^http:\/\/localhost:\d+\/webhooks\/shop$/);

    const listen = startListen(env, String(ready.url), checkpoint);
    await listening(listen);
    const id = await trigger(env, 'coupon.created');
    const logged = await example.until(
      () => example.records().find((record) => record.event === 'received' && record.eventId === id),
      20_000,
    );
    expect(logged).toMatchObject({ eventType: 'coupon.created', verified: true });
    expect(example.stdout.join('\n')).not.toMatch(/whsec_/);

    const event = join(scratch(), 'event.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(event, JSON.stringify({ type: 'ping', data: { object: { id: 1 } } }));
    const wrong = await cli.run([
      'send',
      '--event',
      event,
      '--forward-to',
      String(ready.url),
      '--secret',
      'whsec_not_the_one',
    ]);
    expect(wrong.code).toBe(1);
    await example.until(() => example.records().some((record) => record.event === 'refused'));
  });
});

describe('listen: where it starts, and whose checkpoint it keeps', () => {
  it('a first run delivers only events made after it started, with a sandbox clock far behind this machine', async () => {
    const hook = await receiver();
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url, '--now', '2026-01-05T10:00:00Z']);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const old = [await trigger(env, 'coupon.created'), await trigger(env, 'coupon.updated')];
    const local = await receiver();
    const checkpoint = join(scratch(), 'first-run.json');
    const listen = startListen(env, local.url, checkpoint);
    await listening(listen);
    const fresh = await trigger(env, 'coupon.created');
    await local.until((got) => got.some((delivery) => delivery.event.id === fresh), 20_000);
    // Feed order: an old event would have come before the new one.
    const ids = local.received.map((delivery) => delivery.event.id);
    for (const id of old) expect(ids).not.toContain(id);
    expect(ids[0]).toBe(fresh);
  });

  it('drops, with a message, a checkpoint of another sandbox on the same URL whose clock is behind it', async () => {
    const hook = await receiver();
    const first = await startSandbox(cli, ['--forward-to', hook.url]);
    const port = new URL(first.url).port;
    const checkpoint = join(scratch(), 'other-shop.json');
    const local = await receiver();
    const env1 = { SHOP_API_KEY: first.key, SHOP_API_BASE_URL: first.url };
    const listen1 = startListen(env1, local.url, checkpoint);
    await listening(listen1);
    const seen = await trigger(env1, 'coupon.created');
    await local.until((got) => got.some((delivery) => delivery.event.id === seen), 20_000);
    expect(await listen1.stop()).toBe(0);
    await first.process.stop();

    // Another shop on the same URL, its clock months behind the saved checkpoint.
    const second = await startSandbox(cli, [
      '--forward-to',
      hook.url,
      '--port',
      port,
      '--now',
      '2026-01-05T10:00:00Z',
    ]);
    expect(second.url).toBe(first.url);
    const env2 = { SHOP_API_KEY: second.key, SHOP_API_BASE_URL: second.url };
    const listen2 = startListen(env2, local.url, checkpoint);
    await listening(listen2);
    expect(listen2.stderr.join('\n')).toMatch(
      /is not in the feed of .*another shop or sandbox.*Starting fresh/,
    );
    const next = await trigger(env2, 'coupon.created');
    await local.until((got) => got.some((delivery) => delivery.event.id === next), 20_000);
  });

  it('says so when the checkpoint file was written for another base URL, and send names its secret', async () => {
    const checkpoint = join(scratch(), 'url.json');
    const a = await cli.run(
      ['listen', '--forward-to', 'http://127.0.0.1:9/x', '--checkpoint', checkpoint, '--print-secret'],
      {
        SHOP_API_KEY: 'sk_test_a',
        SHOP_API_BASE_URL: 'http://127.0.0.1:4999',
      },
    );
    expect(a.code).toBe(0);
    expect(a.stderr.join('\n')).toMatch(/secret: a new local one, saved in/);
    const b = await cli.run(
      ['listen', '--forward-to', 'http://127.0.0.1:9/x', '--checkpoint', checkpoint, '--print-secret'],
      {
        SHOP_API_KEY: 'sk_test_a',
        SHOP_API_BASE_URL: 'http://127.0.0.1:4998',
      },
    );
    expect(b.code).toBe(0);
    expect(b.stdout[0]).toBe(a.stdout[0]);
    expect(b.stderr.join('\n')).toMatch(
      /was written for http:\/\/127\.0\.0\.1:4999, not http:\/\/127\.0\.0\.1:4998/,
    );
    expect(b.stderr.join('\n')).toMatch(/secret: the local one kept in/);

    const hook = await receiver();
    hook.secret = a.stdout[0]!;
    const event = join(scratch(), 'send.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(event, JSON.stringify({ type: 'ping', data: { object: { id: 1 } } }));
    const sent = await cli.run([
      'send',
      '--event',
      event,
      '--forward-to',
      hook.url,
      '--checkpoint',
      checkpoint,
    ]);
    expect(sent.code, sent.stderr.join('\n')).toBe(0);
    expect(sent.stderr.join('\n')).toMatch(
      /signed with the local secret of .*url\.json, written by listen for http:\/\/127\.0\.0\.1:4998/,
    );
    expect(hook.received[0]!.verified).toBe(true);
  });

  it('a replay while listen runs stays done: listen’s next save keeps the event off the list', async () => {
    const hook = await receiver();
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const checkpoint = join(scratch(), 'replay.json');
    const local = await receiver();
    local.answer = () => 422;
    const listen = cli.start(
      [
        'listen',
        '--forward-to',
        local.url,
        '--checkpoint',
        checkpoint,
        '--interval',
        '1',
        '--attempts',
        '1',
        '--json',
      ],
      env,
    );
    await listening(listen);
    const refused = await trigger(env, 'coupon.created');
    await listen.until(() =>
      listen.records().find((record) => record.event === 'dead_letter' && record.eventId === refused),
    );
    local.answer = () => 200;
    const replayed = await cli.run(
      ['replay', refused, '--forward-to', local.url, '--checkpoint', checkpoint],
      env,
    );
    expect(replayed.code, replayed.stderr.join('\n')).toBe(0);
    expect(replayed.stderr.join('\n')).toMatch(
      /signed with the local secret of .*replay\.json, as listen signs/,
    );
    // listen saves again (a new event delivered), then stops and saves once more.
    const next = await trigger(env, 'coupon.created');
    await local.until((got) => got.some((delivery) => delivery.event.id === next), 20_000);
    await listen.until(() =>
      listen.records().find((record) => record.event === 'delivery' && record.eventId === next),
    );
    expect(await listen.stop()).toBe(0);
    const listed = await cli.run(
      ['listen', '--forward-to', local.url, '--checkpoint', checkpoint, '--dead-letters', '--json'],
      env,
    );
    expect(listed.code).toBe(0);
    expect(listed.records().map((record) => record.eventId)).not.toContain(refused);
  });
});
