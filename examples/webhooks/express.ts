// Receiving Shop webhooks in Express 5.
//
// The pitfall: the signature covers the raw bytes, and express.json() replaces them with a parsed object.
// Give the webhook route express.raw() (as here), or register it before app.use(express.json()) and let
// `webhooks.node` read the stream itself.
//
// Run: SHOP_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx webhooks/express.ts
import express from 'express';
import { createWebhookHandler } from 'shop-mgmt/webhooks';

// One process here; behind a load balancer, pass `dedupe: new RedisDedupeStore(redis)` from
// 'shop-mgmt/webhooks/redis' so each event id is processed once across processes.
const webhooks = createWebhookHandler({
  // The whole secret, prefix included. An unset variable fails here, at start-up, not on each delivery.
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  onEvent: (event) => console.log(`handled ${event.type} ${event.id}`),
  onError: (error, { outcome }) => console.warn(`webhook ${outcome}:`, error),
}).on('inventory.changed', (event) => {
  // Set stock to qty_available; never add qty_delta (see docs/sync.md and InventoryMirror).
  console.log(`product ${event.data.object.product_id}: ${event.data.object.qty_available} available`);
});

const app = express();
// The route gets the exact bytes from express.raw(); the handler verifies that Buffer.
app.post('/webhooks/shop', express.raw({ type: 'application/json', limit: '1mb' }), webhooks.node);
// The rest of the app may parse JSON as usual.
app.use(express.json());

app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log('listening'));
