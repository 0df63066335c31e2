// One error class per package under require(): every subpath in package.json's exports that re-exports an
// error class hands back the very class `shop-mgmt` exports, and an error thrown under one subpath is
// `instanceof` the class of another. Run by scripts/check-package.sh in a project that installed the tarball.
const assert = require('node:assert/strict');
const { exports: exportMap } = require('shop-mgmt/package.json');

const root = require('shop-mgmt');
const subpaths = Object.keys(exportMap).filter((key) => key !== './package.json');
let shared = 0;
for (const subpath of subpaths) {
  const mod = require(subpath === '.' ? 'shop-mgmt' : `shop-mgmt/${subpath.slice(2)}`);
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value !== 'function' || !(value.prototype instanceof Error) || !(name in root)) continue;
    assert.equal(value, root[name], `require('${subpath}').${name} is another copy of the class`);
    shared += 1;
  }
}
assert.ok(shared > 10, `expected the error classes to be re-exported, saw ${shared}`);

const { verifyWebhookSignature } = require('shop-mgmt/webhooks/verify');
verifyWebhookSignature({
  body: '{}',
  headers: { 'service-signature': 't=1700000000,v1=00' },
  secret: 'whsec_test_secret',
  now: 1700000000,
})
  .then(
    () => assert.fail('a forged signature was accepted'),
    (error) => {
      assert.ok(
        error instanceof root.WebhookVerificationError,
        'not instanceof shop-mgmt WebhookVerificationError',
      );
      assert.ok(error instanceof root.ShopError, 'not instanceof shop-mgmt ShopError');
      assert.ok(error instanceof require('shop-mgmt/webhooks').WebhookVerificationError);
      console.log(`identity (require): ok, ${shared} re-exported classes across ${subpaths.length} subpaths`);
    },
  )
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
