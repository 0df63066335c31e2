// `shop-mgmt sync --listen` takes the endpoint's secret from SHOP_WEBHOOK_SECRET (a flag shows in `ps`), and a
// missing or malformed one is a usage error before anything starts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signPayload } from '../../src/webhooks/sign.js';
import { cliSuite } from './helpers.js';

const { cli, scratch } = cliSuite('sync-usage');

describe('shop-mgmt sync --listen', () => {
  it('refuses to serve a receiver without a whsec_ secret, naming SHOP_WEBHOOK_SECRET', async () => {
    const db = join(scratch(), 'usage.db');
    const missing = await cli.run(['sync', '--db', db, '--listen', '0'], { SHOP_WEBHOOK_SECRET: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr.join('\n')).toMatch(/SHOP_WEBHOOK_SECRET=whsec_/);
    const malformed = await cli.run(['sync', '--db', db, '--listen', '0'], {
      SHOP_WEBHOOK_SECRET: 'not-a-secret',
    });
    expect(malformed.code).toBe(2);
  });

  it('serves the receiver with the secret from SHOP_WEBHOOK_SECRET', { timeout: 120_000 }, async () => {
    const db = join(scratch(), 'env.db');
    const running = cli.start(['sync', '--db', db, '--listen', '0', '--json'], {
      SHOP_WEBHOOK_SECRET: 'whsec_sync_usage_secret',
    });
    const url = await running.until(
      () => running.records().find((record) => record.event === 'listening')?.url as string | undefined,
      90_000,
    );
    const body = JSON.stringify({
      id: 'evt_sync_usage_1',
      object: 'event',
      type: 'ping',
      api_version: '2026-09-24',
      created_at: new Date().toISOString(),
      livemode: false,
      data: { object: { object: 'ping' } },
    });
    const signed = async (secret: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Service-Event': 'ping',
          'Service-Event-Id': 'evt_sync_usage_1',
          'Service-Signature': await signPayload({ body, secret }),
        },
        body,
      });
    expect((await signed('whsec_some_other_secret')).status).toBe(400);
    expect((await signed('whsec_sync_usage_secret')).status).toBe(200);
    expect([...running.stdout, ...running.stderr].join('\n')).not.toContain('whsec_sync_usage_secret');
    await running.stop();
  });
});
