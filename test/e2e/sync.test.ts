// Keeping a mirror in sync (docs/sync.md) end to end: webhooks to a real receiver, the event-feed catch-up
// through ShopClient, one shared dedupe store, and the inventory mirror, against the sandbox over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventCatchUp, InventoryMirror } from '../../src/sync/index.js';
import {
  createWebhookHandler,
  MemoryDedupeStore,
  type ShopEvent,
  type WebhookHandler,
} from '../../src/webhooks/index.js';
import { conformanceTest, useE2E } from './support/harness.js';
import { type Receiver, serveHandler } from './support/receiver.js';

// A fixed start, like every e2e file; the handler checks signature timestamps against the sandbox clock.
const e2e = useE2E();

const dedupe = new MemoryDedupeStore();
const mirror = new InventoryMirror();
const handled: { id: string; type: string; source: string }[] = [];
const onEvent = async (event: ShopEvent, context: { source: string }) => {
  handled.push({ id: event.id, type: event.type, source: context.source });
  if (event.type === 'inventory.changed') await mirror.applyEvent(event);
};

/** A receiver that can be "down" (answering 503 without looking at the delivery), else the SDK handler. */
let down = false;
let handler: WebhookHandler;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await serveHandler((request, response) =>
    down ? response.writeHead(503).end() : handler.node(request, response),
  );
  const endpoint = e2e.sandbox.webhooks.addEndpoint({
    url: receiver.url,
    types: ['inventory.changed', 'range.reservation.booked'],
  });
  handler = createWebhookHandler({
    secret: endpoint.secret,
    dedupe,
    onEvent,
  });
});
afterAll(() => receiver?.close());

describe('webhooks and the feed catch-up, one onEvent, each event once', () => {
  it('catches up from the feed through a webhook outage; the late retries are acknowledged as duplicates', async () => {
    const shop = e2e.client();
    down = true;
    await shop.inventory.adjust({ sku: 'AMMO-FED-9MM-50', location_id: 1, qty_delta: 12, reason: 'receive' });
    const now = e2e.sandbox.clock.nowMs();
    const start = new Date(now - (now % 3_600_000) + 48 * 3_600_000).toISOString();
    const end = new Date(Date.parse(start) + 3_600_000).toISOString();
    const [free] = await shop.range.availability.list({ starts_at: start, ends_at: end });
    await shop.range.reservations.create({
      resource_ids: [free!.resource.id],
      starts_at: start,
      ends_at: end,
      party_size: 1,
      customer_id: 2,
    });
    const outage = await e2e.sandbox.webhooks.flush();
    expect(outage.map((attempt) => attempt.httpStatus)).toEqual([503, 503]);
    expect(handled).toEqual([]);

    const catchUp = new EventCatchUp({ client: shop, onEvent, dedupe });
    const result = await catchUp.run();
    expect(result).toMatchObject({ processed: 2, skipped: 0 });
    expect(handled.map((entry) => [entry.type, entry.source])).toEqual([
      ['inventory.changed', 'feed'],
      ['range.reservation.booked', 'feed'],
    ]);
    expect(mirror.store.get(1, 1)).toBeDefined();

    down = false;
    e2e.sandbox.clock.advance('1m');
    const retries = await e2e.sandbox.webhooks.flush();
    expect(retries.map((attempt) => [attempt.attempt, attempt.httpStatus])).toEqual([
      [2, 200],
      [2, 200],
    ]);
    expect(handled).toHaveLength(2);
    expect(await catchUp.run()).toMatchObject({ processed: 0 });
  });

  it('keeps the inventory mirror equal to the API: by webhook as stock is set, and by reconcile', async () => {
    const shop = e2e.client();
    await shop.inventory.set({ sku: 'TGT-BC-SNC12', location_id: 2, qty_on_hand: 77 });
    await e2e.sandbox.webhooks.flush();
    const product = (await shop.products.list().toArray()).find((row) => row.sku === 'TGT-BC-SNC12')!;
    expect(mirror.store.get(product.id!, 2)).toMatchObject({ qty_available: 77 });

    const result = await mirror.reconcile(shop);
    expect(result.latestUpdatedAt).not.toBeNull();
    const levels = await shop.inventory.list().toArray();
    for (const level of levels) {
      expect(mirror.store.get(level.product_id!, level.location_id!)).toMatchObject({
        qty_available: level.qty_available,
      });
    }
  });

  // docs/sync.md imports the sync helpers from 'shop-mgmt' itself.
  it('exports EventCatchUp and InventoryMirror from shop-mgmt, as docs/sync.md imports them', async () => {
    const sdk: Record<string, unknown> = await import('../../src/index.js');
    expect(sdk.EventCatchUp).toBe(EventCatchUp);
    expect(sdk.InventoryMirror).toBe(InventoryMirror);
  });
});

conformanceTest(e2e, 5);
