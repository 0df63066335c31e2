// Receiving Shop webhooks in Express.
//
// The pitfall: the signature covers the raw bytes, and express.json() replaces them with a parsed object.
// Either register the webhook route BEFORE app.use(express.json()), or give the route express.raw().
//
// In your app: `import express from 'express'` and `from 'shop-sdk/webhooks'`. The declarations at the end
// of this file stand in for Express so the SDK's CI type-checks the example without installing it.
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { RedisDedupeStore } from '../../src/webhooks/redis.js';

export async function main(redis: ConstructorParameters<typeof RedisDedupeStore>[0]): Promise<void> {
  const webhooks = createWebhookHandler({
    // The whole secret, prefix included. An unset variable fails here, at start-up, not on each delivery.
    secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
    // Several processes behind a load balancer share one Redis, so each event id is processed once.
    dedupe: new RedisDedupeStore(redis),
    onError: (error, { outcome, delivery }) => console.warn(`webhook ${outcome}`, delivery.deliveryId, error),
  })
    .on('range.reservation.booked', async (event) => {
      const reservation = event.data.object;
      console.log(`reservation ${reservation.id} booked for ${reservation.party_size}`);
    })
    .on('inventory.changed', (event) => {
      // Set stock to qty_available; never add qty_delta (see docs/sync.md and InventoryMirror).
      console.log(`product ${event.data.object.product_id}: ${event.data.object.qty_available} available`);
    })
    .onUnknown((event) => console.log(`event type ${event.type} is newer than this SDK`));

  const app = express();

  // Option 1: the route gets the raw body from express.raw(); the handler uses that Buffer.
  app.post('/webhooks/shop', express.raw({ type: 'application/json', limit: '1mb' }), webhooks.node);

  // Option 2: no body parser on the route at all; the handler reads the stream itself. Works only if no
  // app-wide JSON parser ran first, so register it before this line:
  app.post('/webhooks/shop-v2', webhooks.node);
  app.use(express.json());

  app.listen(3000);
}

// ---- Stand-ins for `import express from 'express'` (with @types/express installed, delete these). ----
type NodeRequest = Parameters<ReturnType<typeof createWebhookHandler>['node']>[0];
type NodeResponse = Parameters<ReturnType<typeof createWebhookHandler>['node']>[1];
type Middleware = (request: NodeRequest, response: NodeResponse, next: () => void) => unknown;
interface ExpressApp {
  post(path: string, ...handlers: Middleware[]): ExpressApp;
  use(...handlers: Middleware[]): ExpressApp;
  listen(port: number): unknown;
}
declare function express(): ExpressApp;
declare namespace express {
  function raw(options: { type: string; limit?: string }): Middleware;
  function json(): Middleware;
}
