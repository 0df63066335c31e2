// A CommonJS TypeScript consumer (module node16, skipLibCheck off): it resolves the package's require
// condition, dist/*.d.cts, which must not pull in the ESM-only types of a dependency (ky's: TS1479).
import { newerValue, ShopClient, type ShopHooks } from 'shop-mgmt';
import { createSandbox } from 'shop-mgmt/testing';
import { createWebhookHandler } from 'shop-mgmt/webhooks';

const hooks: ShopHooks = {
  afterResponse: [(_request, { context }) => void context.durationMs],
};
const shop = new ShopClient({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:4010', hooks });
void shop.range.reservations.list({ status: 'booked' });
void shop.range.rentals.list({ status: newerValue('lost') });
const sandbox = createSandbox();
void sandbox.createKey();
void createWebhookHandler({ secret: 'whsec_x' });
