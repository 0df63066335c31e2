// One onEvent for both ways events arrive: webhooks as they happen, and the 30-day event feed to catch up
// on what a webhook outage missed. The shared dedupe store hands each event id to the router once.
//
// Run against your shop: SHOP_API_KEY, SHOP_WEBHOOK_SECRET and PORT in the environment, then
// `npx tsx webhooks/sync.ts` (type-checked in CI; it needs a real API, so CI does not start it).
import { createServer } from 'node:http';
import { type Checkpoint, EventCatchUp, InventoryMirror, ShopClient } from 'shop-mgmt';
import { createWebhookHandler, EventRouter, MemoryDedupeStore } from 'shop-mgmt/webhooks';

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
const server = createServer((request, response) => void webhooks.node(request, response)).listen(3000);

// Keep the checkpoint somewhere that outlives the process: in a real receiver, a database row holding the
// whole object as JSON (its `seen` and `held` lists matter as much as its position).
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
// A failed run (the API or your database briefly down) is reported and retried at the next interval; it
// never becomes an unhandled rejection, which would end this process.
const catchingUp = catchUp.start({
  intervalMs: 5 * 60_000,
  onError: (error) => console.error('event catch-up failed; retrying in 5 minutes', error),
});

// Repair anything both missed (reference section 8: reconcile every 15 to 60 minutes). Each run starts at
// the newest level the previous one read; runs never overlap.
const reconciling = mirror.startReconciling(shop, {
  intervalMs: 30 * 60_000,
  onError: (error) => console.error('inventory reconcile failed; retrying in 30 minutes', error),
});

process.once('SIGTERM', () => {
  void Promise.all([catchingUp.stop(), reconciling.stop()]).then(() => server.close());
});
