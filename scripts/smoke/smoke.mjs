// Installed-package smoke test, ESM: every subpath imports, and the client makes a real request.
import assert from 'node:assert/strict';
import { NotFoundError, ShopClient } from 'shop-mgmt';
import { RedisDedupeStore as DedupeFromRedisEntry, RedisRateLimitStore } from 'shop-mgmt/redis';
import { createSandbox } from 'shop-mgmt/testing';
import { verifyWebhook, WebhookVerificationError } from 'shop-mgmt/webhooks';
import { RedisDedupeStore } from 'shop-mgmt/webhooks/redis';
import { verifyWebhookSignature } from 'shop-mgmt/webhooks/verify';
import { startServer } from './server.mjs';

const VECTOR = '0c8670ed117751cc551a20e35839447075c42800ea3cf3e8a2fbda99cd1e6edd';
const EVENT_BODY =
  '{"id":"evt_2","object":"event","type":"customer.created","api_version":"2026-09-24","created_at":"2023-11-14T22:13:20Z","livemode":false,"data":{"object":{"object":"customer","id":1}}}';
const EVENT_VECTOR = '056f22f85cead93430c6bf0dcf4dbd18b834b32713bc9d44ff05a9dfce19dfd3';

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

// docs/webhooks.md: the first vector is not an event, so verifyWebhook refuses it; the second one is.
await assert.rejects(
  verifyWebhook({
    body: '{"id":"evt_1","object":"event"}',
    headers: { 'service-signature': `t=1700000000,v1=${VECTOR}` },
    secret: 'whsec_test_secret',
    now: 1700000000,
  }),
  (error) => error instanceof WebhookVerificationError && error.reason === 'invalid_payload',
);
const event = await verifyWebhook({
  body: EVENT_BODY,
  headers: { 'service-signature': `t=1700000000,v1=${EVENT_VECTOR}` },
  secret: 'whsec_test_secret',
  now: 1700000000,
});
assert.equal(event.id, 'evt_2');

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
