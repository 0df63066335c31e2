// The Hono app of hono-app.ts as a Cloudflare Worker: SHOP_WEBHOOK_SECRET is a secret binding
// (`wrangler secret put SHOP_WEBHOOK_SECRET`). CI runs it in workerd through miniflare (harness/run-worker.ts).
import { app } from './hono-app.js';

export default app;
