// The traps a new partner met in the first hour (issue 19), each driven through the built bin against a
// receiver that is the SDK's own createWebhookHandler on 127.0.0.1 (it verifies against the wall clock,
// dedupes, and answers 400 signature_mismatch or {"duplicate":true} as a partner's receiver would).
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, MemoryDedupeStore, type ShopEvent } from '../../src/webhooks/index.js';
import { type CliProcess, cliSuite, startSandbox } from './helpers.js';

const { cli, scratch } = cliSuite('first-hour');

/** A partner's receiver: the SDK's handler with `secret`, answering what the handler answers. */
class HandlerReceiver {
  readonly events: ShopEvent[] = [];
  readonly statuses: number[] = [];
  #server: Server | null = null;
  url = '';
  /** The event id the handler throws on (a bug in the partner's code for one event): 500 each time. */
  failOn: string | null = null;

  constructor(public secret: string) {}

  async start(): Promise<this> {
    const dedupe = new MemoryDedupeStore();
    this.#server = createServer((request, response) => {
      const handler = createWebhookHandler({
        secret: this.secret,
        dedupe,
        onEvent: (event) => {
          if (event.id === this.failOn) throw new Error('partner bug');
          this.events.push(event);
        },
      });
      const status = response.writeHead.bind(response);
      response.writeHead = ((code: number, ...rest: unknown[]) => {
        this.statuses.push(code);
        return (status as (...args: unknown[]) => typeof response)(code, ...rest);
      }) as typeof response.writeHead;
      void handler.node(request, response);
    });
    await new Promise<void>((done) => this.#server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/webhooks/shop`;
    return this;
  }

  async until(test: () => boolean, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`receiver got ${this.events.map((e) => e.type).join(', ')}`);
      await new Promise((wake) => setTimeout(wake, 50));
    }
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((done) => (this.#server ? this.#server.close(() => done()) : done()));
  }
}

const receivers: HandlerReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver(secret: string): Promise<HandlerReceiver> {
  const started = await new HandlerReceiver(secret).start();
  receivers.push(started);
  return started;
}

async function trigger(env: Record<string, string>, type: string): Promise<string> {
  const run = await cli.run(['trigger', type, '--json'], env);
  expect(run.code, run.stderr.join('\n')).toBe(0);
  return (run.records()[0] as { events: { id: string }[] }).events[0]!.id;
}

const SECRET = 'whsec_partner_receiver_secret_1';

describe('the quick start: sandbox --forward-to and listen at one receiver', () => {
  it('prints export lines, and both sign with the one SHOP_WEBHOOK_SECRET the receiver holds', async () => {
    const hook = await receiver(SECRET);
    // Text mode, as a partner sees it: the lines to paste.
    const sandbox = cli.start(['sandbox', '--port', '0', '--forward-to', hook.url], {
      SHOP_WEBHOOK_SECRET: SECRET,
    });
    await sandbox.until(() => sandbox.stdout.some((line) => line.includes('export SHOP_WEBHOOK_SECRET=')));
    const exported = Object.fromEntries(
      sandbox.stdout
        .map((line) => /^\s*export (SHOP_[A-Z_]+)=(\S+)$/.exec(line))
        .filter((match) => match !== null)
        .map((match) => [match[1]!, match[2]!]),
    );
    expect(Object.keys(exported).sort()).toEqual([
      'SHOP_API_BASE_URL',
      'SHOP_API_KEY',
      'SHOP_WEBHOOK_SECRET',
    ]);
    expect(exported.SHOP_WEBHOOK_SECRET).toBe(SECRET);

    const env = exported as Record<string, string>;
    const listen = cli.start(
      [
        'listen',
        '--forward-to',
        hook.url,
        '--checkpoint',
        join(scratch(), 'quick.json'),
        '--interval',
        '1',
        '--json',
      ],
      env,
    );
    await listen.until(() => listen.stderr.join('\n').includes('Signed with SHOP_WEBHOOK_SECRET'));
    const id = await trigger(env, 'coupon.created');
    // One from the sandbox's endpoint, one from listen: the second a duplicate, both verified (200).
    await hook.until(() => hook.statuses.filter((status) => status === 200).length >= 2);
    expect(hook.statuses.filter((status) => status === 400)).toEqual([]);
    expect(hook.events.map((event) => event.id)).toEqual([id]);
  });
});

describe('listen with a receiver that refuses', () => {
  async function setup(name: string) {
    const sandboxHook = await receiver(SECRET);
    const sandbox = await startSandbox(cli, ['--forward-to', sandboxHook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    return { env, checkpoint: join(scratch(), `${name}.json`) };
  }

  it('says which secret it signs with on 400 signature_mismatch, sets the event aside after --attempts, and goes on', async () => {
    const { env, checkpoint } = await setup('refused');
    const hook = await receiver('whsec_not_the_one_listen_uses');
    const listen = cli.start(
      [
        'listen',
        '--forward-to',
        hook.url,
        '--checkpoint',
        checkpoint,
        '--interval',
        '1',
        '--attempts',
        '2',
        '--json',
      ],
      env,
    );
    await listen.until(() => listen.records().some((record) => record.event === 'listening'));
    const first = await trigger(env, 'coupon.created');
    const aside = await listen.until(() =>
      listen.records().find((record) => record.event === 'dead_letter' && record.eventId === first),
    );
    expect(aside).toMatchObject({ status: 400 });
    expect(String(aside.answer)).toMatch(/signature_mismatch/);
    const stderr = listen.stderr.join('\n');
    expect(stderr).toMatch(/hint: the receiver answered 400 signature_mismatch/);
    expect(stderr).toMatch(
      new RegExp(`the local secret kept in ${checkpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    expect(stderr.match(/hint:/g)).toHaveLength(1); // once, not at every attempt
    const tries = listen
      .records()
      .filter((record) => record.event === 'delivery' && record.eventId === first);
    expect(tries.map((record) => record.attempt)).toEqual([1, 2]);

    // The next event is not blocked behind the refused one: the receiver now holds listen's secret.
    const printed = await cli.run(
      ['listen', '--forward-to', hook.url, '--checkpoint', checkpoint, '--print-secret'],
      env,
    );
    hook.secret = printed.stdout[0]!;
    const second = await trigger(env, 'coupon.created');
    await hook.until(() => hook.events.some((event) => event.id === second));
    expect(hook.events.map((event) => event.id)).not.toContain(first);
    await listen.stop();

    const listed = await cli.run(
      ['listen', '--forward-to', hook.url, '--checkpoint', checkpoint, '--dead-letters', '--json'],
      env,
    );
    expect(listed.code).toBe(0);
    expect(listed.records().map((record) => record.eventId)).toEqual([first]);

    // replay: a new delivery (attempt 1) that reports what the receiver said, and takes it off the list.
    const replayed = await cli.run(
      ['replay', first, '--forward-to', hook.url, '--checkpoint', checkpoint, '--json'],
      env,
    );
    expect(replayed.code, replayed.stderr.join('\n')).toBe(0);
    expect(replayed.records()[0]).toMatchObject({
      eventId: first,
      status: 200,
      attempt: 1,
      duplicate: false,
    });
    expect(replayed.stderr.join('\n')).toMatch(/off the list/);
    const again = await cli.run(['replay', first, '--forward-to', hook.url, '--checkpoint', checkpoint], env);
    expect(again.code).toBe(0);
    expect(again.stdout.join('\n')).toMatch(/\[200\] duplicate: the receiver had this event already/);
    expect(again.stdout.join('\n')).not.toMatch(/sent again/);
    const empty = await cli.run(
      ['listen', '--forward-to', hook.url, '--checkpoint', checkpoint, '--dead-letters', '--json'],
      env,
    );
    expect(empty.records()).toEqual([]);
  });

  it('replay exits 1 with the answer when the receiver refuses, never "sent again at the next poll"', async () => {
    const { env, checkpoint } = await setup('replay-refused');
    const id = await trigger(env, 'coupon.created');
    const hook = await receiver(SECRET);
    hook.failOn = id;
    const refused = await cli.run(['replay', id, '--forward-to', hook.url, '--checkpoint', checkpoint], env);
    expect(refused.code).toBe(1);
    const said = [...refused.stdout, ...refused.stderr].join('\n');
    expect(said).toMatch(/\[400\]|\[500\]/);
    expect(said).not.toMatch(/next poll/);
  });
});

describe('the sandbox process', () => {
  it('signs with the wall clock whatever its own clock says (--clock 60x from a day in the past)', async () => {
    const hook = await receiver(SECRET);
    const signed = cli.start(
      [
        'sandbox',
        '--json',
        '--port',
        '0',
        '--clock',
        '60x',
        '--now',
        '2026-01-05T09:00:00Z',
        '--forward-to',
        hook.url,
      ],
      { SHOP_WEBHOOK_SECRET: SECRET },
    );
    const ready = await signed.until(() => signed.records().find((record) => record.event === 'ready'));
    await trigger(
      { SHOP_API_KEY: ready.key as string, SHOP_API_BASE_URL: ready.url as string },
      'coupon.created',
    );
    await hook.until(() => hook.events.length > 0);
    expect(hook.statuses).not.toContain(400);
    expect(hook.events[0]!.created_at.startsWith('2026-01-05')).toBe(true); // the sandbox's own time in the event
  });

  it('gives a fresh process new event ids, and the same ones with --reproducible-ids', async () => {
    const ids = async (args: string[]) => {
      const hook = await receiver(SECRET);
      const sandbox = await startSandbox(cli, ['--forward-to', hook.url, ...args]);
      const id = await trigger(
        { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url },
        'coupon.created',
      );
      await sandbox.process.stop();
      return id;
    };
    const [a, b] = [await ids([]), await ids([])];
    expect(a).not.toBe(b);
    const [c, d] = [await ids(['--reproducible-ids']), await ids(['--reproducible-ids'])];
    expect(c).toBe(d);
  });

  it('--rate-limit N answers 429 past N a minute; off never does', async () => {
    const limited = await startSandbox(cli, ['--rate-limit', '2']);
    const get = (sandbox: { url: string; key: string }) =>
      fetch(`${sandbox.url}/v1/locations`, { headers: { authorization: `Bearer ${sandbox.key}` } });
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await get(limited)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const off = await startSandbox(cli, ['--rate-limit', 'off']);
    for (let index = 0; index < 70; index++) expect((await get(off)).status).toBe(200);
    expect((await cli.run(['sandbox', '--rate-limit', 'fast'])).code).toBe(2);
  });
});

describe('sandbox --state', () => {
  async function stopped(process: CliProcess) {
    expect(await process.stop(), process.stderr.join('\n')).toBe(0);
  }

  it('prints what it loaded; --forward-to replaces the saved endpoint unless --add-endpoint', async () => {
    const file = join(scratch(), 'replace.json');
    const old = await receiver(SECRET);
    const first = await startSandbox(cli, ['--state', file, '--forward-to', old.url]);
    await stopped(first.process);

    const fresh = await receiver(SECRET);
    const second = await startSandbox(cli, ['--state', file, '--forward-to', fresh.url]);
    const loaded = second.process.records().find((record) => record.event === 'ready')!;
    expect(loaded.loaded).toMatchObject({ file, endpoints: [{ url: old.url, enabled: true }] });
    expect(loaded.endpoints).toEqual([{ id: expect.any(String), url: fresh.url }]);
    expect(second.process.stderr.join('\n')).toMatch(/Loaded .*replace\.json/);
    expect(second.process.stderr.join('\n')).toMatch(/--forward-to replaces the saved endpoint/);
    await stopped(second.process);

    const third = await startSandbox(cli, ['--state', file, '--forward-to', old.url, '--add-endpoint']);
    const both = third.process.records().find((record) => record.event === 'ready')!;
    expect((both.endpoints as { url: string }[]).map((endpoint) => endpoint.url).sort()).toEqual(
      [old.url, fresh.url].sort(),
    );
    await stopped(third.process);

    // Without --forward-to, a restart says where webhooks go (no "No --forward-to" note).
    const fourth = await startSandbox(cli, ['--state', file]);
    expect(fourth.process.stderr.join('\n')).not.toMatch(/No --forward-to/);
    await stopped(fourth.process);
  });

  it('refuses a second process on the same file, and a file damaged inside', async () => {
    const file = join(scratch(), 'locked.json');
    const first = await startSandbox(cli, ['--state', file]);
    const second = await cli.run(['sandbox', '--port', '0', '--state', file]);
    expect(second.code).toBe(2);
    expect(second.stderr.join('\n')).toMatch(/is in use by another shop-mgmt sandbox \(process \d+\)/);
    await stopped(first.process);

    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    snapshot.parts.state.shop = null;
    writeFileSync(file, JSON.stringify(snapshot));
    const damaged = await cli.run(['sandbox', '--port', '0', '--state', file]);
    expect(damaged.code).toBe(2);
    expect(damaged.stderr.join('\n')).toMatch(/--state .*locked\.json: /);
    expect(damaged.stdout.join('\n')).not.toMatch(/ready/i);
  });
});
