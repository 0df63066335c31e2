// Installed-package smoke test, ESM: every subpath imports, and the client makes a real request.
import assert from 'node:assert/strict';
import { NotFoundError, ShopClient } from 'shop-sdk';
import { createSandbox } from 'shop-sdk/testing';
import { verifyWebhook } from 'shop-sdk/webhooks';
import { RedisDedupeStore } from 'shop-sdk/webhooks/redis';
import { startServer } from './server.mjs';

assert.equal(typeof verifyWebhook, 'function');
assert.equal(typeof RedisDedupeStore, 'function');
assert.equal(typeof createSandbox, 'function');
assert.equal(typeof NotFoundError, 'function');

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
