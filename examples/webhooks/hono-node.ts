// The Hono app of hono-app.ts on Node, with @hono/node-server.
//
// Run: SHOP_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx webhooks/hono-node.ts
import { serve } from '@hono/node-server';
import { app, type Env } from './hono-app.js';

const env: Env = { SHOP_WEBHOOK_SECRET: process.env.SHOP_WEBHOOK_SECRET ?? '' };
serve(
  {
    fetch: (request) => app.fetch(request, env),
    hostname: '127.0.0.1',
    port: Number(process.env.PORT ?? 3000),
  },
  () => console.log('listening'),
);
