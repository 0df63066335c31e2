// The partner's own traffic for bench/sync.ts: a second process calling the shop at its whole plan rate,
// throttled through the same Redis rate-limit store and key as the sync engine. Prints one JSON line of
// outcomes when told to stop (SIGTERM).
import { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../src/core/rate-limit/rate-limit-store-redis.js';
import { isShopError, ShopClient } from '../src/index.js';

const [baseUrl, apiKey, redisUrl, rpm] = process.argv.slice(2) as [string, string, string, string];
const redis = new Redis(redisUrl);
const store = new RedisRateLimitStore(redis);
const shop = new ShopClient({
  apiKey,
  baseUrl,
  maxRetries: 0,
  throttle: { requestsPerMinute: Number(rpm), store, key: 'shop' },
});
let ok = 0;
let limited = 0;
let stopped = false;
process.on('SIGTERM', () => {
  stopped = true;
});
while (!stopped) {
  try {
    await shop.range.resources.list({ limit: 1 });
    ok++;
  } catch (error) {
    if (isShopError(error) && (error as { status?: number }).status === 429) limited++;
    else throw error;
  }
}
process.stdout.write(`${JSON.stringify({ ok, limited })}\n`);
redis.disconnect();
