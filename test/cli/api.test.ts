// `shop-mgmt api` and the resource commands, from the built bin, over HTTP against a `shop-mgmt sandbox`
// process: a list walked with --all, a create replayed with its idempotency key after a lost answer (one
// booking), typos refused with a suggestion, a 404 and a 409 with their exit codes, --json lines.
import { mkdirSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopClient } from '../../src/index.js';
import { CliRunner, cliSuite, startSandbox } from './helpers.js';

const { cli, scratch } = cliSuite('api');
/** Starts the one sandbox of the file, which must outlive each test (cliSuite ends what `cli` started). */
const sandboxes = new CliRunner(() => cli.binPath());
afterAll(() => sandboxes.killAll());

let shop: { url: string; key: string };
let env: Record<string, string>;

beforeAll(async () => {
  const started = await startSandbox(sandboxes, ['--rate-limit', 'off']);
  shop = { url: started.url, key: started.key };
  const config = join(scratch(), 'config');
  mkdirSync(config, { recursive: true });
  env = { SHOP_API_KEY: shop.key, SHOP_API_BASE_URL: shop.url, XDG_CONFIG_HOME: config };
}, 60_000);

function client(): ShopClient {
  return new ShopClient({ apiKey: shop.key, baseUrl: shop.url });
}

/** Every reservation, read with the SDK in this process (the truth the CLI's output is held to). */
async function reservations(): Promise<
  Array<{ id: number; status: string; contact: { name?: string } | null }>
> {
  return (await client().range.reservations.list({ limit: 200 }).toArray()) as never;
}

describe('shop-mgmt api', () => {
  it('walks every page of a list with --all, one JSON record a line', async () => {
    const expected = await reservations();
    expect(expected.length).toBeGreaterThan(14);
    const run = await cli.run(
      ['api', 'get', '/v1/range/reservations', '--query', 'limit=7', '--all', '--json'],
      env,
    );
    expect(run.code, run.stderr.join('\n')).toBe(0);
    const lines = run.stdout.filter((line) => line !== '');
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(expected.map((r) => r.id));
    expect(run.stderr.join('\n')).toContain(`${expected.length} records`);
  });

  it('without --all prints the one page it got', async () => {
    const run = await cli.run(['api', 'get', 'range/reservations', '--query', 'limit=3', '--json'], env);
    expect(run.code, run.stderr.join('\n')).toBe(0);
    expect(run.stdout.filter((line) => line !== '')).toHaveLength(3);
  });

  it('a create whose answer was lost, run again with its printed key, books once', async () => {
    // A proxy that hands the request on but drops every answer while `lose` is set: the booking is made,
    // the CLI never hears of it (its own retries, with the same key, are dropped too).
    let lose = true;
    let forwarded = 0;
    const target = new URL(shop.url);
    const proxy: Server = createServer((incoming, outgoing) => {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          forwarded += 1;
          if (lose) {
            answer.resume();
            answer.on('end', () => outgoing.socket?.destroy());
            return;
          }
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(upstream);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    try {
      const proxied = {
        ...env,
        SHOP_API_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      };
      const name = `Lost Answer ${Date.now()}`;
      const sessions = (await client().range.sessions.list({ limit: 50 }).toArray()) as Array<{
        id: number;
        seats_left: number;
        status: string;
      }>;
      const session = sessions.find((s) => s.status === 'scheduled' && s.seats_left > 0);
      expect(session).toBeDefined();
      const create = [
        'range',
        'reservations',
        'create',
        '--class-session-id',
        String(session!.id),
        '--party-size',
        '1',
        '--contact',
        JSON.stringify({ name, email: 'lost.answer@example.com' }),
      ];
      const first = await cli.run(create, proxied, 60_000);
      expect(first.code, first.stderr.join('\n')).toBe(3);
      expect(forwarded).toBeGreaterThan(0);
      const key = /idempotency key: (\S+)/.exec(first.stderr.join('\n'))?.[1];
      expect(key).toBeDefined();
      lose = false;
      const second = await cli.run([...create, '--idempotency-key', key!, '--json'], proxied);
      expect(second.code, second.stderr.join('\n')).toBe(0);
      expect(second.stderr.join('\n')).toContain('replayed');
      const booked = (await reservations()).filter((r) => r.contact?.name === name);
      expect(booked).toHaveLength(1);
      expect((JSON.parse(second.stdout[0]!) as { id: number }).id).toBe(booked[0]!.id);
    } finally {
      proxy.closeAllConnections();
      await new Promise((done) => proxy.close(done));
    }
  }, 120_000);

  it('refuses a typo in a flag or a value with exit 2 and the nearest name', async () => {
    const flag = await cli.run(['range', 'reservations', 'list', '--stauts', 'booked'], env);
    expect(flag.code).toBe(2);
    expect(flag.stderr.join('\n')).toContain('did you mean --status?');
    const value = await cli.run(['range', 'reservations', 'list', '--status', 'bookd'], env);
    expect(value.code).toBe(2);
    expect(value.stderr.join('\n')).toContain('did you mean booked?');
    const command = await cli.run(['range', 'reservatons', 'list'], env);
    expect(command.code).toBe(2);
    expect(command.stderr.join('\n')).toContain('did you mean range reservations?');
  });

  it('names a missing required field before anything is sent', async () => {
    const run = await cli.run(['range', 'availability', 'list', '--starts-at', '2026-12-01T10:00:00Z'], env);
    expect(run.code).toBe(2);
    expect(run.stderr.join('\n')).toContain('needs --ends-at');
  });

  it('a 404 and a 409 exit 1 with the status, the code and the message', async () => {
    const missing = await cli.run(['range', 'reservations', 'retrieve', '99999999'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr.join('\n')).toMatch(/404 NOT_FOUND: No such range reservation/);
    const booked = (await reservations()).find((r) => r.status === 'booked')!;
    const cancel = ['range', 'reservations', 'cancel', String(booked.id), '--reason', 'test'];
    const first = await cli.run([...cancel, '--json'], env);
    expect(first.code, first.stderr.join('\n')).toBe(0);
    expect(JSON.parse(first.stdout[0]!)).toMatchObject({ id: booked.id, status: 'cancelled' });
    const again = await cli.run(cancel, env);
    expect(again.code).toBe(1);
    expect(again.stderr.join('\n')).toMatch(/409 INVALID_STATE: .*cannot be cancelled/);
  });

  it('--json: stdout is one JSON record a line and nothing else', async () => {
    const run = await cli.run(
      ['range', 'reservations', 'list', '--status', 'booked', '--limit', '4', '--json'],
      env,
    );
    expect(run.code, run.stderr.join('\n')).toBe(0);
    const lines = run.stdout.filter((line) => line !== '');
    expect(lines).toHaveLength(4);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ object: 'range_reservation', status: 'booked' });
    expect(run.stderr.join('\n')).toMatch(/more records: --all walks them, or --cursor \S+/);
  });

  it('never prints the key', async () => {
    const run = await cli.run(['api', 'get', '/v1/me', '--json'], env);
    expect(run.code).toBe(0);
    expect([...run.stdout, ...run.stderr].join('\n')).not.toContain(shop.key);
  });
});
