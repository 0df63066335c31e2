// Receiving Shop webhooks in Hono: one app for Node (hono-node.ts), Bun, Deno and Cloudflare Workers
// (hono-worker.ts).
//
// The pitfall: a body can be read once. Hand the untouched `c.req.raw` Request to the handler; do not put
// a validator or `await c.req.json()` in front of the webhook route.
import { Hono } from 'hono';
import { createWebhookHandler, type ShopEvent, type WebhookHandler } from 'shop-mgmt/webhooks';

/** What the app reads from its environment: Workers bindings, or process.env on Node. */
export interface Env {
  SHOP_WEBHOOK_SECRET: string;
}

async function handleEvent(event: ShopEvent): Promise<void> {
  switch (event.type) {
    case 'range.rental.checked_in':
      console.log(
        `rental ${event.data.object.id} back; rounds ${event.data.object.last_checkout?.rounds_fired}`,
      );
      break;
    default:
      // Types the SDK does not know yet land here too: acknowledge them.
      break;
  }
  console.log(`handled ${event.type} ${event.id}`);
}

// On Workers the secret arrives with each request's env, so the handler is built on first use (and keeps
// its in-memory dedupe for the isolate's life; share a DedupeStore to dedupe across isolates).
let webhooks: WebhookHandler | undefined;

export const app = new Hono<{ Bindings: Env }>();

app.post('/webhooks/shop', (c) => {
  webhooks ??= createWebhookHandler({ secret: c.env.SHOP_WEBHOOK_SECRET, onEvent: handleEvent });
  return webhooks(c.req.raw);
});
