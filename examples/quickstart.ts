// `npm run demo`: a partner's day with shop-mgmt, from listing lanes to catching up from the event feed.
//
// With neither SHOP_API_KEY nor SHOP_API_BASE_URL set it runs against the built-in sandbox on 127.0.0.1
// (bookings, webhooks and all). With both set it runs only the read-only part against that shop.
// It imports the SDK from source so it runs without a build; in your app the imports are 'shop-mgmt',
// 'shop-mgmt/testing' and 'shop-mgmt/webhooks'.
import { describeError } from './lib/print.js';
import { readOnlyTour } from './lib/read-only-tour.js';
import { sandboxDay } from './lib/sandbox-day.js';

async function main(): Promise<void> {
  const key = process.env.SHOP_API_KEY;
  const baseUrl = process.env.SHOP_API_BASE_URL;
  if (key && baseUrl) return readOnlyTour();
  if (key || baseUrl) {
    console.log(
      `Only ${key ? 'SHOP_API_KEY' : 'SHOP_API_BASE_URL'} is set; set both to read your shop. Using the sandbox.\n`,
    );
    // The sandbox run makes its own key and URL; the half-set variable must not leak into its client.
    delete process.env.SHOP_API_KEY;
    delete process.env.SHOP_API_BASE_URL;
  }
  return sandboxDay();
}

main().then(
  () => {
    process.exitCode = 0;
  },
  (error: unknown) => {
    console.error(`\nThe quickstart stopped: ${describeError(error)}`);
    process.exitCode = 1;
  },
);
