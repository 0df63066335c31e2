// One onEvent for both ways events arrive: webhooks as they happen, and the 30-day event feed to catch up
// on what a webhook outage missed. The shared dedupe store hands each event id to the router once.
//
// In your app: `import { ShopClient, EventCatchUp, InventoryMirror } from 'shop-sdk'` and
// `import { createWebhookHandler, EventRouter, MemoryDedupeStore } from 'shop-sdk/webhooks'`.
import { createServer } from 'node:http';
import { ShopClient } from '../../src/client.js';
import { type Checkpoint, EventCatchUp, InventoryMirror } from '../../src/sync/index.js';
import { createWebhookHandler, EventRouter, MemoryDedupeStore } from '../../src/webhooks/index.js';

const shop = new ShopClient(); // SHOP_API_KEY and SHOP_API_BASE_URL from the environment
const mirror = new InventoryMirror();

const router = new EventRouter()
  .on('inventory.changed', (event) => mirror.applyEvent(event))
  .on('range.reservation.cancelled', (event) => console.log(`reservation ${event.data.object.id} cancelled`));

const dedupe = new MemoryDedupeStore();
const webhooks = createWebhookHandler({
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  dedupe,
  onEvent: router.dispatch,
});
createServer((request, response) => void webhooks.node(request, response)).listen(3000);

// Keep the checkpoint somewhere that outlives the process (a database row in a real receiver).
let saved: Checkpoint | null = null;
const catchUp = new EventCatchUp({
  client: shop,
  onEvent: router.dispatch,
  dedupe,
  checkpoints: {
    load: () => saved,
    save: (checkpoint) => {
      saved = checkpoint;
    },
  },
});
const poller = catchUp.start({ intervalMs: 5 * 60_000 });

// Repair anything both missed (reference section 8: reconcile every 15 to 60 minutes).
let lastReconcile: string | undefined;
setInterval(async () => {
  const result = await mirror.reconcile(shop, lastReconcile ? { since: lastReconcile } : {});
  lastReconcile = result.latestUpdatedAt ?? lastReconcile;
}, 30 * 60_000);

process.once('SIGTERM', () => void poller.stop());
