// Issue 32 item 7, `shop-mgmt sandbox` as a process: a busy port suggests --port 0 (example receiver too); a --state restart
// without --forward-to prints the secret its saved endpoint signs with, as the first run did.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSuite, startSandbox } from './helpers.js';

const { cli, scratch, receiver } = cliSuite('sandbox-restart');

describe('shop-mgmt sandbox', () => {
  it('on a busy port, exits 3 and suggests --port 0', async () => {
    const first = await startSandbox(cli);
    const port = new URL(first.url).port;
    const second = await cli.run(['sandbox', '--port', port]);
    expect(second.code).toBe(3);
    expect(second.stderr.join('\n')).toMatch(/EADDRINUSE.*--port 0 for any free one/);

    const example = cli.start(['example', 'receiver', '--port', '0', '--json']);
    const ready = await example.until(() => example.records().find((record) => record.event === 'ready'));
    const taken = await cli.run(['example', 'receiver', '--port', new URL(String(ready.url)).port]);
    expect(taken.code).toBe(3);
    expect(taken.stderr.join('\n')).toMatch(/EADDRINUSE.*--port 0 for any free one/);
  });

  it('a --state restart prints the export line of the saved endpoint secret', async () => {
    const hook = await receiver();
    const state = join(scratch(), 'shop.json');
    const first = await startSandbox(cli, ['--forward-to', hook.url, '--state', state]);
    expect(first.webhookSecret).toMatch(/^whsec_/);
    expect(await first.process.stop()).toBe(0);

    const again = await startSandbox(cli, ['--state', state]);
    expect(again.webhookSecret).toBe(first.webhookSecret);
    expect(await again.process.stop()).toBe(0);

    const text = cli.start(['sandbox', '--port', '0', '--state', state]);
    await text.until(() => text.stdout.some((line) => line.includes('Ctrl-C to stop')), 20_000);
    expect(text.stdout).toContain(`  export SHOP_WEBHOOK_SECRET=${first.webhookSecret}`);
  });
});
