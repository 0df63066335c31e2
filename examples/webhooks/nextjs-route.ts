// Receiving Shop webhooks in a Next.js App Router route handler: app/api/webhooks/shop/route.ts.
//
// Route handlers get a web Request and the body is untouched until read, so the handler reads the raw
// bytes itself: never call request.json() first. (Pages Router API routes parse the body: export
// `config = { api: { bodyParser: false } }` and use `webhooks.node` there.)
//
// In your app: `from 'shop-sdk/webhooks'`.
import { createWebhookHandler, type DedupeStore, MemoryDedupeStore } from '../../src/webhooks/index.js';

// Serverless instances do not share memory: a MemoryDedupeStore only catches repeats within one instance.
// Share a store (RedisDedupeStore, or your own DedupeStore over a database) to process each event once.
const dedupe: DedupeStore = new MemoryDedupeStore();

const webhooks = createWebhookHandler({
  // The whole secret, prefix included. An unset variable fails here, when the route loads, not on each
  // delivery; never fall back to a made-up secret, or anyone who reads it can sign deliveries.
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  dedupe,
}).on('membership.updated', async (event) => {
  console.log(`membership ${event.data.object.id} is now ${event.data.object.status}`);
});

/** `POST /api/webhooks/shop`: a route handler is `(request: Request) => Response`. */
export async function POST(request: Request): Promise<Response> {
  return webhooks(request);
}

// node:crypto verifies 4 to 6 times faster than Web Crypto on Node; the SDK picks it by itself on the
// Node.js runtime and falls back to Web Crypto on the Edge runtime.
export const runtime = 'nodejs';
