// Installed-package smoke test, CommonJS: every subpath require()s, and the client makes a real request.
const assert = require('node:assert/strict');
const { NotFoundError, ShopClient } = require('shop-mgmt');
const { createSandbox } = require('shop-mgmt/testing');
const { verifyWebhook } = require('shop-mgmt/webhooks');
const { verifyWebhookSignature } = require('shop-mgmt/webhooks/verify');
const { RedisDedupeStore } = require('shop-mgmt/webhooks/redis');
const shared = require('shop-mgmt/redis');

assert.equal(typeof verifyWebhook, 'function');
assert.equal(typeof RedisDedupeStore, 'function');
assert.equal(typeof shared.RedisRateLimitStore, 'function');
assert.equal(typeof shared.RedisDedupeStore, 'function');
assert.equal(typeof createSandbox, 'function');
assert.equal(typeof NotFoundError, 'function');

(async () => {
  // The fixed vector of DESIGN.md, through the verify-only entry.
  await verifyWebhookSignature({
    body: '{"id":"evt_1","object":"event"}',
    headers: {
      'service-signature': 't=1700000000,v1=0c8670ed117751cc551a20e35839447075c42800ea3cf3e8a2fbda99cd1e6edd',
    },
    secret: 'whsec_test_secret',
    now: 1700000000,
  });
  const { startServer } = await import('./server.mjs');
  const server = await startServer();
  try {
    const shop = new ShopClient({ apiKey: 'sk_smoke', baseUrl: server.url });
    const me = await shop.me.retrieve();
    assert.equal(me.name, 'Smoke Test Shop');
    assert.deepEqual(server.requests, [{ method: 'GET', url: '/v1/me', authorization: 'Bearer sk_smoke' }]);
    console.log('smoke (require): ok');
  } finally {
    server.close();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
