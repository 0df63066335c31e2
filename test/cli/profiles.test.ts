// Profiles from the built bin against a `shop-mgmt sandbox` process: `login` reads the key from stdin (never
// argv), checks it, and stores it in the XDG config folder as a fleet shops file of mode 0600; the
// environment wins over a profile; the key never shows in the process list, the output or --json.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadShops, writeShopsFile } from '../../src/sync/fleet/registry.js';
import { CliProcess, CliRunner, cliSuite, startSandbox } from './helpers.js';

const { cli, scratch } = cliSuite('profiles');
const sandboxes = new CliRunner(() => cli.binPath());
afterAll(() => sandboxes.killAll());

let shop: { url: string; key: string };
beforeAll(async () => {
  const started = await startSandbox(sandboxes, ['--rate-limit', 'off']);
  shop = { url: started.url, key: started.key };
}, 60_000);

let folders = 0;
/** A config folder of its own for a test, and the env that points the bin at it (no key in the env). */
function configEnv(): { config: string; env: Record<string, string> } {
  const config = join(scratch(), `config-${++folders}`);
  mkdirSync(config, { recursive: true });
  return { config, env: { XDG_CONFIG_HOME: config, SHOP_PROFILE: '' } };
}

/** `login` with `input` on stdin; resolves with the run and the argv the process had while it read. */
async function login(args: string[], env: Record<string, string>, input: string) {
  const child = spawn(process.execPath, [cli.binPath(), 'login', ...args], {
    env: { ...process.env, NO_COLOR: '', SHOP_API_KEY: '', SHOP_API_BASE_URL: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const running = new CliProcess(child);
  // What `ps` shows of the process while it waits for the key.
  const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
  child.stdin!.end(input);
  const code = await running.exited;
  return { code, cmdline, stdout: running.stdout.join('\n'), stderr: running.stderr.join('\n') };
}

describe('shop-mgmt login, profiles, logout', () => {
  it('stores a key read from stdin as a shops-file entry of mode 0600, and whoami uses it', async () => {
    const { config, env } = configEnv();
    const run = await login(['--profile', 'sb', '--base-url', shop.url, '--json'], env, `${shop.key}\n`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.cmdline).not.toContain(shop.key);
    expect(`${run.stdout}\n${run.stderr}`).not.toContain(shop.key);
    expect(JSON.parse(run.stdout)).toMatchObject({ event: 'login', profile: 'sb', environment: 'sandbox' });
    const file = join(config, 'shop-mgmt', 'shops.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      shops: [{ name: 'sb', apiKey: shop.key, baseUrl: shop.url }],
    });
    // The fleet reads the same file: one entry shape for both.
    const [entry] = await loadShops(file);
    expect(entry!.name).toBe('sb');
    expect(entry!.apiKey()).toBe(shop.key);

    const whoami = await cli.run(['whoami', '--profile', 'sb', '--json'], env);
    expect(whoami.code, whoami.stderr.join('\n')).toBe(0);
    const record = JSON.parse(whoami.stdout[0]!);
    expect(record).toMatchObject({
      profile: 'sb',
      keySource: 'profile sb',
      environment: 'sandbox',
      baseUrl: shop.url,
    });
    expect(record.permissions).toContain('range:write');
    expect(record.rateLimit.limit).toBeGreaterThan(0);
    expect(whoami.stdout.join('\n')).not.toContain(shop.key);

    const list = await cli.run(['profiles', '--json'], { ...env, SHOP_PROFILE: 'sb' });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout[0]!)).toEqual({
      profile: 'sb',
      baseUrl: shop.url,
      key: 'sk_test_[redacted]',
      environment: 'sandbox',
      current: true,
    });

    const logout = await cli.run(['logout', '--profile', 'sb'], env);
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ shops: [] });
  });

  it('does not store a key the API refuses', async () => {
    const { config, env } = configEnv();
    const run = await login(['--base-url', shop.url], env, 'sk_test_not_a_key_at_all\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the key was not stored: .*401 INVALID_API_KEY/);
    expect(run.stderr).not.toContain('sk_test_not_a_key_at_all');
    expect(() => statSync(join(config, 'shop-mgmt', 'shops.json'))).toThrow();
  });

  it('SHOP_API_KEY wins over the profile', async () => {
    const { config, env } = configEnv();
    mkdirSync(join(config, 'shop-mgmt'));
    writeShopsFile(join(config, 'shop-mgmt', 'shops.json'), [
      { name: 'default', apiKey: 'sk_test_stale_key_of_the_profile', baseUrl: shop.url },
    ]);
    const fromProfile = await cli.run(['whoami'], env);
    expect(fromProfile.code).toBe(1);
    expect(fromProfile.stderr.join('\n')).toContain('401 INVALID_API_KEY');
    const fromEnv = await cli.run(['whoami', '--json'], { ...env, SHOP_API_KEY: shop.key });
    expect(fromEnv.code, fromEnv.stderr.join('\n')).toBe(0);
    expect(JSON.parse(fromEnv.stdout[0]!)).toMatchObject({ keySource: 'SHOP_API_KEY', profile: 'default' });
  });

  it('a profile named but missing is a usage error naming the ones there are', async () => {
    const { config, env } = configEnv();
    mkdirSync(join(config, 'shop-mgmt'));
    writeShopsFile(join(config, 'shop-mgmt', 'shops.json'), [
      { name: 'acme', apiKey: shop.key, baseUrl: shop.url },
    ]);
    const run = await cli.run(['range', 'reservations', 'list', '--profile', 'acm'], env);
    expect(run.code).toBe(2);
    expect(run.stderr.join('\n')).toContain('no profile "acm"');
    expect(run.stderr.join('\n')).toContain('profiles: acme');
  });
});
