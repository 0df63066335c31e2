import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadShops, ShopRegistryError, writeShopsFile } from '../../../src/sync/fleet/registry.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'registry-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.REGISTRY_TEST_KEY;
});

function file(name: string, body: unknown, mode = 0o644): string {
  const path = join(dir, name);
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  chmodSync(path, mode);
  return path;
}

describe('loadShops', () => {
  it('reads env: and file: references, and again on each call (a rotated key needs no restart)', async () => {
    process.env.REGISTRY_TEST_KEY = 'sk_test_env_1';
    writeFileSync(join(dir, 'secret'), 'whsec_one\n');
    const path = file('shops.json', {
      shops: [
        { name: 'north', apiKey: 'env:REGISTRY_TEST_KEY', webhookSecrets: ['file:secret'], maxShare: 0.5 },
        {
          name: 'south',
          apiKey: 'env:REGISTRY_TEST_KEY',
          baseUrl: 'http://127.0.0.1:1/',
          tables: ['products'],
        },
      ],
    });
    const [north, south] = await loadShops(path);
    expect(north!.name).toBe('north');
    expect(north!.apiKey()).toBe('sk_test_env_1');
    expect(north!.webhookSecrets()).toEqual(['whsec_one']);
    expect(north!.maxShare).toBe(0.5);
    expect(south!.baseUrl).toBe('http://127.0.0.1:1/');
    expect(south!.tables).toEqual(['products']);
    process.env.REGISTRY_TEST_KEY = 'sk_test_env_2';
    expect(north!.apiKey()).toBe('sk_test_env_2');
  });

  it('refuses a literal secret in a file others may read, and accepts it at mode 0600', async () => {
    const body = { shops: [{ name: 'north', apiKey: 'sk_test_literal_abc' }] };
    const open = file('open.json', body, 0o644);
    const error = await loadShops(open).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopRegistryError);
    expect((error as Error).message).toMatch(/others may read: use env:NAME or file:PATH, or chmod 600/);
    expect((error as Error).message).not.toContain('sk_test_literal_abc');
    const closed = file('closed.json', body, 0o600);
    expect((await loadShops(closed))[0]!.apiKey()).toBe('sk_test_literal_abc');
  });

  it('names the field of a bad entry: unknown field, bad or duplicate name, unset variable', async () => {
    const cases: [unknown, RegExp][] = [
      [{ shops: [{ name: 'a', apiKey: 'env:X', secret: 1 }] }, /unknown field\(s\) secret/],
      [{ shops: [{ name: 'a/b', apiKey: 'env:X' }] }, /name must be 1-63 letters/],
      [
        { shops: [{ name: 'a', apiKey: 'env:REGISTRY_TEST_UNSET' }] },
        /shop a, apiKey: the variable REGISTRY_TEST_UNSET is not set/,
      ],
      [
        {
          shops: [
            { name: 'a', apiKey: 'env:REGISTRY_TEST_KEY' },
            { name: 'A', apiKey: 'env:REGISTRY_TEST_KEY' },
          ],
        },
        /the name A is used twice/,
      ],
      [
        { shops: [{ name: 'a', apiKey: 'env:REGISTRY_TEST_KEY', maxShare: 2 }] },
        /maxShare must be a number above 0/,
      ],
      [{ shop: [] }, /must hold \{ "shops": \[ \.\.\. \] \}/],
      ['{ not json', /is not valid JSON/],
    ];
    process.env.REGISTRY_TEST_KEY = 'sk_test_x';
    for (const [body, message] of cases) {
      const error = await loadShops(file('bad.json', body)).catch((e: unknown) => e);
      expect(error, String(message)).toBeInstanceOf(ShopRegistryError);
      expect((error as Error).message).toMatch(message);
    }
    expect(cases).toHaveLength(7);
  });

  it('reads YAML, and a registry function', async () => {
    process.env.REGISTRY_TEST_KEY = 'sk_test_yaml';
    const path = file('shops.yaml', 'shops:\n  - name: east\n    apiKey: env:REGISTRY_TEST_KEY\n');
    expect((await loadShops(path)).map((shop) => [shop.name, shop.apiKey()])).toEqual([
      ['east', 'sk_test_yaml'],
    ]);
    const fromCode = await loadShops(async () => [{ name: 'west', apiKey: 'sk_test_inline' }]);
    expect(fromCode[0]!.apiKey()).toBe('sk_test_inline');
  });

  it('writeShopsFile writes mode 0600, even over a file that was readable', async () => {
    const path = file('out.json', '{}', 0o644);
    writeShopsFile(path, [{ name: 'north', apiKey: 'sk_test_written' }]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect((await loadShops(path))[0]!.apiKey()).toBe('sk_test_written');
  });
});
