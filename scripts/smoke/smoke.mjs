// Installed-package smoke test, ESM: every subpath imports, and the client makes a real request.
import assert from 'node:assert/strict';
import { NotFoundError, ShopClient } from 'shop-sdk';
import { RedisDedupeStore as DedupeFromRedisEntry, RedisRateLimitStore } from 'shop-sdk/redis';
import { createSandbox } from 'shop-sdk/testing';
import { verifyWebhook } from 'shop-sdk/webhooks';
import { RedisDedupeStore } from 'shop-sdk/webhooks/redis';
import { verifyWebhookSignature } from 'shop-sdk/webhooks/verify';
import { startServer } from './server.mjs';

const VECTOR = '0c8670ed117751cc551a20e35839447075c42800ea3cf3e8a2fbda99cd1e6edd';

assert.equal(typeof verifyWebhook, 'function');
assert.equal(typeof RedisDedupeStore, 'function');
assert.equal(typeof RedisRateLimitStore, 'function');
// One class behind both subpaths: the ESM build shares the chunk.
assert.equal(DedupeFromRedisEntry, RedisDedupeStore);
assert.equal(typeof createSandbox, 'function');
assert.equal(typeof NotFoundError, 'function');

// The fixed vector of DESIGN.md, through the verify-only entry.
await verifyWebhookSignature({
  body: '{"id":"evt_1","object":"event"}',
  headers: { 'service-signature': `t=1700000000,v1=${VECTOR}` },
  secret: 'whsec_test_secret',
  now: 1700000000,
});

const server = await startServer();
try {
  const shop = new ShopClient({ apiKey: 'sk_smoke', baseUrl: server.url });
  const me = await shop.me.retrieve();
  assert.equal(me.name, 'Smoke Test Shop');
  assert.deepEqual(server.requests, [{ method: 'GET', url: '/v1/me', authorization: 'Bearer sk_smoke' }]);
  console.log('smoke (import): ok');
} finally {
  server.close();
}
