// Receiving Shop webhooks with Node's own http server: `webhooks.node` reads the raw body from the request
// stream itself (up to 1 MiB by default), so nothing else is needed.
//
// In your app: `from 'shop-sdk/webhooks'`.
import { createServer } from 'node:http';
import { createWebhookHandler } from '../../src/webhooks/index.js';

const webhooks = createWebhookHandler({
  secret: process.env.SHOP_WEBHOOK_SECRET ?? '',
  onEvent: (event) => console.log(`${event.type} ${event.id}`),
});

createServer((request, response) => {
  if (request.url === '/webhooks/shop') return void webhooks.node(request, response);
  response.statusCode = 404;
  response.end();
}).listen(3000);
