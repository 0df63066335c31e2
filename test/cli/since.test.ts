// Issue 32 item 6: listen's first run starts after every event already in the feed. With events spread
// over the minute before the newest one (the sandbox clock moved between them), the start position used to
// sit at the newest event with only the last wall-clock minute seen, and the next read of its overlap
// handed on the older ones ("19 old events on a first run"). In-process against the sandbox's own fetch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ListenFileStore } from '../../src/cli/listen-file.js';
import { startingPoint } from '../../src/cli/since.js';
import { ShopClient } from '../../src/client.js';
import { EventCatchUp } from '../../src/sync/catch-up.js';
import { createSandbox } from '../../src/testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'shop-mgmt-since-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('listen starting point', () => {
  it('a first run hands on none of the events already in the feed, spread over the minute before the newest', async () => {
    const sandbox = createSandbox({ clock: 'frozen', now: new Date(Date.now() - 95_000).toISOString() });
    sandbox.webhooks.addEndpoint({ url: 'http://127.0.0.1:9/hook', types: ['*'] });
    const old: string[] = [];
    for (let step = 0; step < 6; step++) {
      const { events } = await sandbox.trigger('coupon.created');
      old.push(...events.map((event) => event.id));
      sandbox.clock.advance('10s'); // the last one lands within the wall-clock minute, the first ones before it
    }
    expect(old.length).toBeGreaterThanOrEqual(6);
    const client = new ShopClient({
      apiKey: sandbox.createKey(),
      baseUrl: sandbox.baseUrl,
      fetch: sandbox.fetch,
      maxRetries: 0,
    });
    const store = ListenFileStore.open(join(dir, 'listen.json'), sandbox.baseUrl);
    await startingPoint(client, undefined, store);

    const handed: string[] = [];
    const run = () =>
      new EventCatchUp({
        client,
        checkpoints: store,
        checkpointEvery: 1,
        onEvent: (event) => {
          handed.push(event.id);
        },
      }).run();
    await run();
    expect(handed).toEqual([]);
    const { events } = await sandbox.trigger('coupon.created');
    await run();
    expect(handed).toEqual(events.map((event) => event.id));
  });
});
