// Receiving Shop webhooks in Fastify 5.
//
// The pitfall: Fastify parses application/json bodies before the route runs. Inside an encapsulated plugin,
// replace the JSON parser with one that keeps the raw Buffer, so only the webhook route is affected.
//
// Run: SHOP_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx webhooks/fastify.ts
import Fastify from 'fastify';
import { createWebhookHandler } from 'shop-mgmt/webhooks';

const webhooks = createWebhookHandler({
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  onEvent: async (event, { delivery }) => {
    console.log(`handled ${event.type} ${event.id} (attempt ${delivery?.attempt ?? '?'})`);
  },
});

const app = Fastify();
await app.register(async (scope) => {
  // Only in this plugin: keep the body as the exact bytes received.
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
  scope.post('/webhooks/shop', async (request, reply) => {
    const result = await webhooks.handle({ body: request.body, headers: request.headers });
    return reply.code(result.status).header('content-type', 'application/json').send(result.body);
  });
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
console.log('listening');
