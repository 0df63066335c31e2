// Helpers of the fleet tests: one sandbox per shop served on its own loopback port (the fleet cares only
// about each registry entry's baseUrl and key), and the registry entries for them.
import { ShopClient } from '../../../src/client.js';
import { loadShops, type RegisteredShop } from '../../../src/sync/fleet/registry.js';
import type { SandboxOptions } from '../../../src/testing/options.js';
import { createSandbox, type Sandbox } from '../../../src/testing/sandbox.js';

export interface ServedShop {
  readonly name: string;
  readonly sandbox: Sandbox;
  readonly url: string;
  readonly key: string;
  /** A client with a full key of its own (for comparing and for changing the shop). */
  readonly client: ShopClient;
  readonly clientKey: string;
  close(): Promise<void>;
}

/** `count` sandbox shops named `prefix-1`... each on its own port, seeds 1, 2, ... */
export async function servedShops(
  count: number,
  prefix: string,
  options: (index: number) => SandboxOptions = () => ({}),
): Promise<ServedShop[]> {
  const shops: ServedShop[] = [];
  for (let index = 1; index <= count; index++) {
    const sandbox = createSandbox({
      rateLimits: { perMinute: 10_000_000, perDay: null },
      seed: index,
      ...options(index),
    });
    const server = await sandbox.listen();
    const clientKey = sandbox.createKey();
    shops.push({
      clientKey,
      name: `${prefix}-${index}`,
      sandbox,
      url: server.url,
      key: sandbox.createKey(),
      client: new ShopClient({ apiKey: clientKey, baseUrl: server.url, maxRetries: 0 }),
      close: () => server.close(),
    });
  }
  return shops;
}

/** The registry of `shops` (webhook secrets per shop when given). */
export function registryOf(
  shops: readonly ServedShop[],
  secrets: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<RegisteredShop[]> {
  return loadShops(
    shops.map((shop) => ({
      name: shop.name,
      apiKey: shop.key,
      baseUrl: shop.url,
      ...(secrets.get(shop.name) ? { webhookSecrets: [...secrets.get(shop.name)!] } : {}),
    })),
  );
}
