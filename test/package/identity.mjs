// One error class per package under import: the ESM twin of identity.cjs.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const root = await import('shop-mgmt');
const { exports: exportMap } = createRequire(import.meta.url)('shop-mgmt/package.json');
const subpaths = Object.keys(exportMap).filter((key) => key !== './package.json');
let shared = 0;
for (const subpath of subpaths) {
  const mod = await import(subpath === '.' ? 'shop-mgmt' : `shop-mgmt/${subpath.slice(2)}`);
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value !== 'function' || !(value.prototype instanceof Error) || !(name in root)) continue;
    assert.equal(value, root[name], `import('${subpath}').${name} is another copy of the class`);
    shared += 1;
  }
}
assert.ok(shared > 10, `expected the error classes to be re-exported, saw ${shared}`);

const { verifyWebhookSignature } = await import('shop-mgmt/webhooks/verify');
/** A delivery whose signature cannot match: every verifier refuses it with WebhookVerificationError. */
const FORGED = {
  body: '{}',
  headers: { 'service-signature': 't=1700000000,v1=00' },
  secret: 'whsec_test_secret',
  now: 1700000000,
};
const webhooks = await import('shop-mgmt/webhooks');
await assert.rejects(
  verifyWebhookSignature(FORGED),
  (error) =>
    error instanceof root.WebhookVerificationError &&
    error instanceof root.ShopError &&
    error instanceof webhooks.WebhookVerificationError,
);
// The CJS build loaded beside the ESM one (a dependency that require()s shop-mgmt): two copies of each class,
// and still an error of one is `instanceof` the same class of the other, and of no sibling.
const cjs = createRequire(import.meta.url)('shop-mgmt/webhooks/verify');
assert.notEqual(cjs.WebhookVerificationError, root.WebhookVerificationError);
await assert.rejects(
  cjs.verifyWebhookSignature(FORGED),
  (error) =>
    error instanceof root.WebhookVerificationError &&
    error instanceof root.ShopError &&
    !(error instanceof root.ShopApiError) &&
    !(error instanceof root.WebhookConfigurationError),
);
console.log(`identity (import): ok, ${shared} re-exported classes across ${subpaths.length} subpaths`);
