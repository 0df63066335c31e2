// Receiving Shop webhooks in Hono (Node, Bun, Deno, Cloudflare Workers).
//
// The pitfall: a body can be read once. Hand the untouched `c.req.raw` Request to the handler; do not put
// a validator or `await c.req.json()` in front of the webhook route.
//
// In your app: `import { Hono } from 'hono'` and `from 'shop-sdk/webhooks'`. The declarations at the end of
// this file stand in for Hono so the SDK's CI type-checks the example without installing it.
import { createWebhookHandler, type ShopEvent } from '../../src/webhooks/index.js';

interface Env {
  SHOP_WEBHOOK_SECRET: string;
}

async function handleEvent(event: ShopEvent): Promise<void> {
  switch (event.type) {
    case 'range.rental.checked_in':
      console.log(
        `rental ${event.data.object.id} back; rounds fired ${event.data.object.last_checkout?.rounds_fired}`,
      );
      break;
    case 'sale.completed':
      console.log(`sale ${event.data.object.id} completed`);
      break;
    default:
      // Types the SDK does not know yet land here too: acknowledge them.
      break;
  }
}

// On Workers the secret arrives with each request's env, so the handler is built on first use.
let webhooks: ReturnType<typeof createWebhookHandler> | undefined;

const app = new Hono<{ Bindings: Env }>();

app.post('/webhooks/shop', (c) => {
  webhooks ??= createWebhookHandler({ secret: c.env.SHOP_WEBHOOK_SECRET, onEvent: handleEvent });
  return webhooks(c.req.raw);
});

export default app;

// ---- Stand-ins for `import { Hono } from 'hono'` (with hono installed, delete these). ----
interface HonoContext<E extends { Bindings: object }> {
  env: E['Bindings'];
  req: { raw: Request };
}
declare class Hono<E extends { Bindings: object }> {
  post(path: string, handler: (c: HonoContext<E>) => Response | Promise<Response>): this;
}
