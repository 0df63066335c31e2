// `shop-mgmt doctor` from the built bin: a healthy sandbox process, a wrong key, a server whose Date header
// is off by more than the 5-minute signature tolerance (a tiny server on 127.0.0.1), a doubled /v1.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliRunner, cliSuite, startSandbox } from './helpers.js';

const { cli, scratch } = cliSuite('doctor');
const sandboxes = new CliRunner(() => cli.binPath());
afterAll(() => sandboxes.killAll());

let shop: { url: string; key: string };
let env: Record<string, string>;
beforeAll(async () => {
  const started = await startSandbox(sandboxes, ['--rate-limit', 'off']);
  shop = { url: started.url, key: started.key };
  const config = join(scratch(), 'config');
  mkdirSync(config, { recursive: true });
  env = {
    SHOP_API_KEY: shop.key,
    SHOP_API_BASE_URL: shop.url,
    XDG_CONFIG_HOME: config,
    SHOP_WEBHOOK_SECRET: '',
  };
}, 60_000);

type Check = { check: string; status: 'ok' | 'warn' | 'fail'; detail: string; fix: string | null };

async function doctor(extra: Record<string, string>, args: string[] = []) {
  const run = await cli.run(['doctor', '--json', ...args], { ...env, ...extra });
  const checks = run.records() as unknown as Check[];
  return { run, checks, byName: (name: string) => checks.find((check) => check.check === name) };
}

/** A server that answers every path as the API's /v1/me would, with its Date header `offsetMs` off. */
async function skewedServer(offsetMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.sendDate = false;
    response.writeHead(200, {
      'content-type': 'application/json',
      date: new Date(Date.now() + offsetMs).toUTCString(),
    });
    response.end(JSON.stringify({ status: 'ok', data: { object: 'api_key', environment: 'sandbox' } }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

describe('shop-mgmt doctor', () => {
  it('passes against a healthy sandbox: one ok line a check, exit 0', async () => {
    const { run, checks, byName } = await doctor({});
    expect(run.code, run.stderr.join('\n')).toBe(0);
    expect(checks.map((check) => check.check)).toEqual([
      'node',
      'base url',
      'reachable',
      'key',
      'clock',
      'webhook',
      'drivers',
    ]);
    expect(checks.filter((check) => check.status !== 'ok')).toEqual([]);
    expect(byName('key')!.detail).toContain('accepted (sandbox)');
    expect(run.stdout.join('\n')).not.toContain(shop.key);
  });

  it('fails on a wrong key, with the fix', async () => {
    const { run, byName } = await doctor({ SHOP_API_KEY: 'sk_test_wrong_key_for_doctor' });
    expect(run.code).toBe(1);
    expect(byName('key')).toMatchObject({ status: 'fail', fix: expect.stringContaining('shop-mgmt login') });
    expect(byName('key')!.detail).toContain('401 INVALID_API_KEY');
    expect([...run.stdout, ...run.stderr].join('\n')).not.toContain('sk_test_wrong_key_for_doctor');
  });

  it('fails on a clock more than 5 minutes off the server’s Date header, warns on one a minute off', async () => {
    const far = await skewedServer(-7 * 60_000);
    try {
      const { run, byName } = await doctor({ SHOP_API_BASE_URL: far.url });
      expect(run.code).toBe(1);
      expect(byName('key')!.status).toBe('ok');
      expect(byName('clock')).toMatchObject({ status: 'fail' });
      expect(byName('clock')!.detail).toMatch(
        /this machine is 4[12]\d s ahead of the server, beyond the 5-minute tolerance/,
      );
    } finally {
      await far.close();
    }
    const near = await skewedServer(90_000);
    try {
      const { run, byName } = await doctor({ SHOP_API_BASE_URL: near.url });
      expect(run.code).toBe(0);
      expect(byName('clock')).toMatchObject({ status: 'warn' });
      expect(byName('clock')!.detail).toMatch(/behind the server/);
    } finally {
      await near.close();
    }
  });

  it('fails on a doubled /v1 in the base URL and names the address to use', async () => {
    const { run, byName } = await doctor({ SHOP_API_BASE_URL: `${shop.url}/v1/v1` });
    expect(run.code).toBe(1);
    expect(byName('base url')).toMatchObject({ status: 'fail', fix: `use ${shop.url}` });
    expect(byName('key')).toMatchObject({ status: 'fail' });
    // One /v1 is accepted: the SDK drops it.
    const single = await doctor({ SHOP_API_BASE_URL: `${shop.url}/v1` });
    expect(single.run.code, single.run.stdout.join('\n')).toBe(0);
  });

  it('checks a webhook secret’s form and a --db', async () => {
    const bad = await doctor({ SHOP_WEBHOOK_SECRET: 'wh_sec 123' });
    expect(bad.run.code).toBe(1);
    expect(bad.byName('webhook')).toMatchObject({ status: 'fail' });
    expect(bad.run.stdout.join('\n')).not.toContain('wh_sec 123');
    const db = join(scratch(), 'doctor.db');
    const good = await doctor({ SHOP_WEBHOOK_SECRET: 'whsec_abcdefghijklmnopqrstuvwx' }, ['--db', db]);
    expect(good.run.code, good.run.stdout.join('\n')).toBe(0);
    expect(good.byName('database')!.detail).toContain('does not exist yet');
    const missing = await doctor({}, ['--db', join(scratch(), 'no-such-folder', 'x.db')]);
    expect(missing.run.code).toBe(1);
    expect(missing.byName('database')).toMatchObject({ status: 'fail' });
  });
});
