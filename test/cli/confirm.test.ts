// A write against a live shop asks first when a person is at the terminal (the bin run in a pseudo-terminal
// by script(1)), the shop named LIVE in red; "n" sends nothing, --yes skips the question, a sandbox key and
// a pipe never ask. The shop is a server on 127.0.0.1 that counts what reaches it.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSuite } from './helpers.js';

const { cli } = cliSuite('confirm');

let server: Server;
let url = '';
const received: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    request.resume();
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const coupons = [
        { object: 'coupon', id: 1, code: 'SPRING10', percent_off: 10 },
        { object: 'coupon', id: 22, code: 'RANGEDAY', percent_off: 15, applies_to: null },
      ];
      response.end(
        JSON.stringify({
          status: 'ok',
          data: coupons,
          meta: { limit: 20, has_more: false, next_cursor: null },
        }),
      );
      return;
    }
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: 'ok', data: { object: 'range_reservation', id: 7 } }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The bin in a pseudo-terminal (script -qec), `input` typed into it; resolves with its exit code and output. */
function atTerminal(
  args: string[],
  key: string,
  input: string,
): Promise<{ code: number | null; text: string }> {
  const command = [process.execPath, cli.binPath(), ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { ...process.env, SHOP_API_KEY: key, SHOP_API_BASE_URL: url, NO_COLOR: '', SHOP_PROFILE: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  child.stdin.end(input);
  return new Promise((done) => child.on('exit', (code) => done({ code, text })));
}

const CREATE = ['api', 'post', '/v1/range/reservations', '--data', '{"party_size":1}'];

describe('a write on a live shop', () => {
  it('asks at a terminal, names the shop LIVE in red, and "n" sends nothing', async () => {
    received.length = 0;
    const run = await atTerminal(CREATE, 'sk_live_confirm_test_key', 'n\n');
    expect(run.code, run.text).toBe(1);
    expect(run.text).toContain('POST /v1/range/reservations on \u001b[1;31mLIVE shop\u001b[0m');
    expect(run.text).toContain('cancelled: nothing was sent');
    expect(received).toEqual([]);
    expect(run.text).not.toContain('sk_live_confirm_test_key');
  }, 60_000);

  it('"y" sends it once; --yes sends it without asking', async () => {
    received.length = 0;
    const yes = await atTerminal(CREATE, 'sk_live_confirm_test_key', 'y\n');
    expect(yes.code, yes.text).toBe(0);
    expect(received).toEqual(['POST /v1/range/reservations']);
    received.length = 0;
    const skipped = await atTerminal([...CREATE, '--yes'], 'sk_live_confirm_test_key', '');
    expect(skipped.code, skipped.text).toBe(0);
    expect(skipped.text).not.toContain('LIVE shop');
    expect(received).toEqual(['POST /v1/range/reservations']);
  }, 60_000);

  it('a sandbox key at a terminal, or a live key through a pipe, is not asked', async () => {
    received.length = 0;
    const sandbox = await atTerminal(CREATE, 'sk_test_confirm_test_key', '');
    expect(sandbox.code, sandbox.text).toBe(0);
    expect(sandbox.text).not.toContain('LIVE shop');
    const piped = await cli.run(CREATE, { SHOP_API_KEY: 'sk_live_confirm_test_key', SHOP_API_BASE_URL: url });
    expect(piped.code, piped.stderr.join('\n')).toBe(0);
    expect(received).toEqual(['POST /v1/range/reservations', 'POST /v1/range/reservations']);
  }, 60_000);
});

describe('a list at a terminal', () => {
  it('prints a table of its scalar columns, headed, aligned; piped, one JSON line a record', async () => {
    const run = await atTerminal(['api', 'get', '/v1/coupons'], 'sk_test_table_key', '');
    expect(run.code, run.text).toBe(0);
    const lines = run.text
      .replace(/\r/g, '')
      .split('\n')
      .filter((line) => /\S/.test(line));
    expect(lines.slice(0, 3)).toEqual([
      'ID  CODE      PERCENT_OFF  APPLIES_TO',
      '1   SPRING10  10',
      '22  RANGEDAY  15',
    ]);
    const piped = await cli.run(['api', 'get', '/v1/coupons'], {
      SHOP_API_KEY: 'sk_test_table_key',
      SHOP_API_BASE_URL: url,
    });
    expect(piped.code).toBe(0);
    expect(piped.stdout.filter(Boolean).map((line) => JSON.parse(line).code)).toEqual([
      'SPRING10',
      'RANGEDAY',
    ]);
  }, 60_000);
});
