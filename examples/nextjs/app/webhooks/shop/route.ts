// Receiving Shop webhooks in a Next.js App Router route handler: POST /webhooks/shop.
//
// Route handlers get a web Request and the body is untouched until read, so the handler reads the raw bytes
// itself: never call request.json() first. (Pages Router API routes parse the body: export
// `config = { api: { bodyParser: false } }` and use `webhooks.node` there.)
//
// Run: `npx next build nextjs && SHOP_WEBHOOK_SECRET=whsec_... npx next start nextjs -p 3000`
import { createWebhookHandler } from 'shop-mgmt/webhooks';

// Serverless instances do not share memory: a MemoryDedupeStore (the default) only catches repeats within
// one instance. Share a store (RedisDedupeStore, or your own DedupeStore) to process each event once.
// Built on the first request, not at import: `next build` loads the route without the secret.
let webhooks: ReturnType<typeof createWebhookHandler> | undefined;

export async function POST(request: Request): Promise<Response> {
  webhooks ??= createWebhookHandler({
    secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
    onEvent: (event) => console.log(`handled ${event.type} ${event.id}`),
  }).on('membership.updated', (event) => {
    console.log(`membership ${event.data.object.id} is now ${event.data.object.status}`);
  });
  return webhooks(request);
}

// node:crypto verifies faster than Web Crypto on Node; the SDK picks it by itself on the Node.js runtime
// and falls back to Web Crypto on the Edge runtime.
export const runtime = 'nodejs';
