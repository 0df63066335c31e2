// `shop-mgmt logs tail` against a `shop-mgmt sandbox` process: the live log over SSE shows requests and
// delivery attempts as they happen, filters them, stays plain when piped, never shows a key or secret, and
// resumes across a sandbox restart with Last-Event-ID, losing nothing.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/client.js';
import { type CliProcess, cliSuite, startSandbox } from './helpers.js';

const { cli, receiver, scratch } = cliSuite('logs');

type Entry = Record<string, unknown> & { id: string; kind: string };

/** Starts `logs tail` with `args` and waits until it follows the stream. */
async function tail(env: Record<string, string>, args: string[] = ['--json']): Promise<CliProcess> {
  const running = cli.start(['logs', 'tail', ...args], env);
  await running.until(() => running.stderr.join('\n').includes('following the live log'));
  return running;
}

const entries = (running: CliProcess) => running.records() as Entry[];
const hasScript =
  spawnSync('script', ['--version']).status === 0 && spawnSync('timeout', ['--version']).status === 0;

describe('shop-mgmt logs tail', () => {
  it('shows a request and its delivery as they happen, with no key or secret in the stream', async () => {
    const hook = await receiver();
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const following = await tail(env);

    const shop = new ShopClient({ apiKey: sandbox.key, baseUrl: sandbox.url, maxRetries: 0 });
    const coupon = await shop.coupons.create(
      { code: 'TAIL1', name: 'Tail', percent_off: 5 },
      { idempotencyKey: 'tail-test-key-1' },
    );
    const delivery = await following.until(() =>
      entries(following).find((entry) => entry.kind === 'delivery' && entry.eventType === 'coupon.created'),
    );
    const request = entries(following).find((entry) => entry.kind === 'request' && entry.method === 'POST')!;
    expect(request).toMatchObject({
      path: '/v1/coupons',
      status: 201,
      operationId: 'coupons.create',
      keyPrefix: `${sandbox.key.slice(0, 12)}…`,
      idempotencyKey: 'tail-test-key-1',
      replayed: false,
    });
    expect(typeof request.durationMs).toBe('number');
    expect(delivery).toMatchObject({ status: 'succeeded', httpStatus: 200, attempt: 1, nextRetryAt: null });
    expect(
      entries(following).some((entry) => entry.kind === 'event' && entry.eventType === 'coupon.created'),
    ).toBe(true);

    // The same key again is a replay, and the log says so.
    await shop.coupons.create(
      { code: 'TAIL1', name: 'Tail', percent_off: 5 },
      { idempotencyKey: 'tail-test-key-1' },
    );
    const replay = await following.until(() => entries(following).find((entry) => entry.replayed === true));
    expect(replay).toMatchObject({ status: 201, idempotencyKey: 'tail-test-key-1' });
    expect(coupon.code).toBe('TAIL1');

    const everything = following.stdout.join('\n');
    expect(everything).not.toContain(sandbox.key);
    expect(everything).not.toContain(sandbox.key.slice(0, 16));
    expect(everything).not.toContain(sandbox.webhookSecret!);
    expect(await following.stop()).toBe(0);
  });

  it('filters by status, path, operation and event type, and prints plain lines when piped', async () => {
    const hook = await receiver();
    const sandbox = await startSandbox(cli, ['--forward-to', hook.url]);
    const env = { SHOP_API_KEY: sandbox.key, SHOP_API_BASE_URL: sandbox.url };
    const errors = await tail(env, ['--status', '4xx', '--json']);
    const range = await tail(env, ['--path', '/v1/range', '--json']);
    const created = await tail(env, ['--operation', 'coupons.create', '--json']);
    const sales = await tail(env, ['--event', 'sale.*', '--json']);
    const plain = await tail(env, []);

    const shop = new ShopClient({ apiKey: sandbox.key, baseUrl: sandbox.url, maxRetries: 0 });
    await shop.range.resources.list();
    await shop.coupons.create({ code: 'FILTER1', name: 'Filter', percent_off: 5 });
    await expect(shop.range.reservations.retrieve(999_999)).rejects.toThrow();
    const sale = await cli.run(['trigger', 'sale.completed', '--json'], env);
    expect(sale.code, sale.stderr.join('\n')).toBe(0);
    const last = await shop.locations.list();
    expect(last.data.length).toBeGreaterThan(0);

    // Everything has been seen once the unfiltered tail shows the last request.
    await plain.until(() => plain.stdout.some((line) => line.includes('GET    /v1/locations 200')));
    await sales.until(() => entries(sales).some((entry) => entry.kind === 'delivery'));
    expect(entries(errors).map((entry) => [entry.path, entry.status])).toEqual([
      ['/v1/range/reservations/999999', 404],
    ]);
    expect(new Set(entries(range).map((entry) => entry.path))).toEqual(
      new Set(['/v1/range/resources', '/v1/range/reservations/999999']),
    );
    expect(entries(created).map((entry) => entry.operationId)).toEqual(['coupons.create']);
    expect(entries(sales).length).toBeGreaterThan(0);
    expect(
      entries(sales).every((entry) => entry.kind !== 'request' && entry.eventType === 'sale.completed'),
    ).toBe(true);
    // Piped: one plain line an entry, no escape codes, no JSON.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is looked for
    expect(plain.stdout.join('\n')).not.toMatch(/\u001b\[/);
    expect(plain.stdout.some((line) => line.startsWith('{'))).toBe(false);
    expect(plain.stdout.find((line) => line.includes('/v1/coupons'))).toMatch(
      /^\d\d:\d\d:\d\d POST {3}\/v1\/coupons 201 \d+ms coupons\.create sk_test_/,
    );
    expect(
      plain.stdout.some((line) => /webhook sale\.completed evt_\S+ -> we_\S+ 200 attempt 1/.test(line)),
    ).toBe(true);

    const bad = await cli.run(['logs', 'tail', '--status', 'teapot'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr.join('\n')).toMatch(/--status takes 4xx/);
  });

  it.skipIf(!hasScript)('colours one line an entry on a terminal', async () => {
    const sandbox = await startSandbox(cli);
    // A pseudo-terminal from util-linux `script`; `timeout` ends the tail with Ctrl-C's signal.
    const command = `timeout -s INT 6 '${process.execPath}' '${cli.binPath()}' logs tail`;
    const terminal = spawn('script', ['-qfec', command, '/dev/null'], {
      env: {
        ...process.env,
        NO_COLOR: '',
        TERM: 'xterm',
        SHOP_API_KEY: sandbox.key,
        SHOP_API_BASE_URL: sandbox.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    terminal.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const exited = new Promise((done) => terminal.on('exit', done));
    const deadline = Date.now() + 5_000;
    while (!output.includes('following the live log') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const shop = new ShopClient({ apiKey: sandbox.key, baseUrl: sandbox.url, maxRetries: 0 });
    await shop.locations.list();
    await expect(shop.range.reservations.retrieve(424242)).rejects.toThrow();
    await exited;
    const lines = output.split(/\r?\n/).filter((line) => line.includes('/v1/'));
    expect(lines).toHaveLength(2);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is looked for
    expect(lines[0]).toMatch(/GET {4}\/v1\/locations \u001b\[32m200\u001b\[0m/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is looked for
    expect(lines[1]).toMatch(/\/v1\/range\/reservations\/424242 \u001b\[33m404\u001b\[0m/);
  });

  it('survives a sandbox restart and resumes with Last-Event-ID, losing nothing', async () => {
    const hook = await receiver();
    const state = join(scratch(), 'restart.json');
    const first = await startSandbox(cli, ['--forward-to', hook.url, '--state', state]);
    const port = new URL(first.url).port;
    const env = { SHOP_API_KEY: first.key, SHOP_API_BASE_URL: first.url };
    const following = await tail(env);
    const shop = new ShopClient({ apiKey: first.key, baseUrl: first.url, maxRetries: 0 });
    await shop.coupons.create({ code: 'BEFORE1', name: 'Before', percent_off: 5 });
    await following.until(() => entries(following).some((entry) => entry.kind === 'delivery'));
    expect(await first.process.stop('SIGINT')).toBe(0);
    await following.until(() => following.stderr.join('\n').includes('reconnecting'));

    // The same shop on the same port; requests made at once, before the tail can be back, are not lost.
    const second = await startSandbox(cli, ['--forward-to', hook.url, '--state', state, '--port', port]);
    const codes = ['AFTER1', 'AFTER2', 'AFTER3'];
    for (const code of codes) await shop.coupons.create({ code, name: 'After', percent_off: 5 });
    await following.until(
      () => entries(following).filter((entry) => entry.kind === 'delivery').length >= 4,
      10_000,
    );
    await following.until(() => following.stderr.join('\n').includes('reconnected'));
    const posts = entries(following).filter((entry) => entry.kind === 'request' && entry.method === 'POST');
    expect(posts).toHaveLength(4);
    const ids = entries(following).map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Ids carry the run: the second process's entries are told apart from the first's.
    expect(new Set(ids.map((id) => id.split('.')[0])).size).toBe(2);
    expect(await second.process.stop('SIGINT')).toBe(0);
  });

  it('exits 3 when no sandbox is there, and 1 for a key the sandbox did not issue', async () => {
    const gone = await cli.run(['logs', 'tail'], {
      SHOP_API_KEY: 'sk_test_nobody',
      SHOP_API_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(gone.code).toBe(3);
    const sandbox = await startSandbox(cli);
    const refused = await cli.run(['logs', 'tail'], {
      SHOP_API_KEY: 'sk_test_somebody_else_0000',
      SHOP_API_BASE_URL: sandbox.url,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr.join('\n')).toMatch(/refused the key/);
  });
});
