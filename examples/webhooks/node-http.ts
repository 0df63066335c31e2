// Receiving Shop webhooks with Node's own http server: `webhooks.node` reads the raw body from the request
// stream itself (up to 1 MiB by default), so nothing else is needed.
//
// Run: SHOP_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx webhooks/node-http.ts
import { createServer } from 'node:http';
import { createWebhookHandler } from 'shop-mgmt/webhooks';

// The whole secret, prefix included. An unset variable fails here, at start-up, not on each delivery.
const webhooks = createWebhookHandler({
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  onEvent: (event) => console.log(`handled ${event.type} ${event.id}`),
});

const server = createServer((request, response) => {
  if (request.url === '/webhooks/shop') return void webhooks.node(request, response);
  response.statusCode = 404;
  response.end();
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => console.log('listening'));
