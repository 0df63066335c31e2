// Receiving Shop webhooks in Koa 3 with @koa/router.
//
// The pitfall: a body parser (koa-bodyparser, @koa/bodyparser) consumes the stream and keeps a parsed
// object. Keep it off the webhook route and hand Node's own request to `webhooks.node`, which reads the raw
// bytes; `ctx.respond = false` tells Koa the response is written already.
//
// Run: SHOP_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx webhooks/koa.ts
import Router from '@koa/router';
import Koa from 'koa';
import { createWebhookHandler } from 'shop-mgmt/webhooks';

const webhooks = createWebhookHandler({
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  onEvent: (event) => console.log(`handled ${event.type} ${event.id}`),
});

const router = new Router();
router.post('/webhooks/shop', async (ctx) => {
  ctx.respond = false;
  await webhooks.node(ctx.req, ctx.res);
});

const app = new Koa();
app.use(router.routes()).use(router.allowedMethods());
app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log('listening'));
