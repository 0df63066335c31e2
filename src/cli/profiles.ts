// The CLI's profiles: a shops file of the fleet's registry (src/sync/fleet/registry.ts), one entry a profile,
// in the user's config folder. `sync --shops` reads the same file.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readEnv as readRawEnv } from '../internal/env.js';
import { loadShops, type ShopEntry, writeShopsFile } from '../sync/fleet/registry.js';
import { usageError } from './exit-codes.js';

/** A variable's value; an empty one counts as unset (as `SHOP_API_KEY= cmd` means). */
function readEnv(name: string): string | undefined {
  return readRawEnv(name) || undefined;
}

/** The profile used when neither --profile nor SHOP_PROFILE names one. */
export const DEFAULT_PROFILE = 'default';

/** `$XDG_CONFIG_HOME/shop-mgmt` (else `~/.config/shop-mgmt`; `%APPDATA%\shop-mgmt` on Windows). */
export function configDir(): string {
  const xdg = readEnv('XDG_CONFIG_HOME');
  if (xdg) return join(xdg, 'shop-mgmt');
  const appData = process.platform === 'win32' ? readEnv('APPDATA') : undefined;
  return appData ? join(appData, 'shop-mgmt') : join(homedir(), '.config', 'shop-mgmt');
}

/** The profiles file: a registry file `{ "shops": [...] }` of mode 0600. */
export function profilesFile(): string {
  return join(configDir(), 'shops.json');
}

/** The entries of the profiles file as written (secrets unresolved); none when there is no file. */
export function readProfiles(): ShopEntry[] {
  const path = profilesFile();
  if (!existsSync(path)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw usageError(`${path} is not JSON (${(error as Error).message}); fix or remove it`);
  }
  const shops = (parsed as { shops?: unknown } | null)?.shops;
  if (!Array.isArray(shops)) throw usageError(`${path} must hold { "shops": [ ... ] }`);
  return shops as ShopEntry[];
}

/** Writes the profiles (the folder made private to its owner first). */
export function writeProfiles(entries: readonly ShopEntry[]): string {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  const path = profilesFile();
  writeShopsFile(path, entries);
  return path;
}

/** The name of the profile to use: --profile, else SHOP_PROFILE, else `default`. */
export function profileName(flag: string | undefined): { name: string; named: boolean } {
  if (flag !== undefined && flag !== '') return { name: flag, named: true };
  const fromEnv = readEnv('SHOP_PROFILE');
  if (fromEnv) return { name: fromEnv, named: true };
  return { name: DEFAULT_PROFILE, named: false };
}

/** Where a command's key and base URL come from, for the client and for `whoami`/`doctor` to say. */
export interface Credentials {
  readonly apiKey: string | undefined;
  readonly baseUrl: string | undefined;
  readonly webhookSecrets: readonly string[];
  /** The profile read, when one was. */
  readonly profile: string | null;
  /** `SHOP_API_KEY`, `profile NAME`, or null: where the key came from. */
  readonly keySource: string | null;
  readonly baseUrlSource: string | null;
}

/**
 * The key and base URL of a command: SHOP_API_KEY and SHOP_API_BASE_URL win; what they leave unset comes
 * from the profile (--profile, SHOP_PROFILE or `default`). A profile named but missing is a usage error.
 */
export async function resolveCredentials(flag: string | undefined): Promise<Credentials> {
  const { name, named } = profileName(flag);
  const envKey = readEnv('SHOP_API_KEY');
  const envUrl = readEnv('SHOP_API_BASE_URL');
  const envSecret = readEnv('SHOP_WEBHOOK_SECRET');
  const entries = readProfiles();
  const entry = entries.find((candidate) => candidate.name === name);
  if (!entry && named && !(envKey && envUrl)) {
    const known = entries.map((candidate) => candidate.name);
    throw usageError(
      `no profile ${JSON.stringify(name)} in ${profilesFile()}${known.length > 0 ? ` (profiles: ${known.join(', ')})` : ''}; add it with: shop-mgmt login --profile ${name}`,
    );
  }
  let profileKey: string | undefined;
  let profileSecrets: string[] = [];
  if (entry) {
    let loaded: Awaited<ReturnType<typeof loadShops>>;
    try {
      loaded = await loadShops(profilesFile());
    } catch (error) {
      throw usageError(`the profiles file cannot be used: ${(error as Error).message}`);
    }
    const shop = loaded.find((candidate) => candidate.name === name)!;
    profileKey = shop.apiKey();
    profileSecrets = shop.webhookSecrets();
  }
  return {
    apiKey: envKey ?? profileKey,
    baseUrl: envUrl ?? entry?.baseUrl,
    webhookSecrets: envSecret ? [envSecret] : profileSecrets,
    profile: entry ? name : null,
    keySource: envKey ? 'SHOP_API_KEY' : profileKey ? `profile ${name}` : null,
    baseUrlSource: envUrl ? 'SHOP_API_BASE_URL' : entry?.baseUrl ? `profile ${name}` : null,
  };
}

/** True for a key of a live shop (the sandbox and test shops issue `sk_test_` keys). */
export function isLiveKey(key: string | undefined): boolean {
  return key?.startsWith('sk_live_') === true;
}
