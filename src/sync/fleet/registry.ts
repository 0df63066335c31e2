// The shops a partner serves: one entry shape for the fleet's `shops.json` and the CLI's profiles.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ERROR_CLASS, ShopError } from '../../core/errors/shop-error.js';

/** One shop as written in a registry file or returned by a registry function. */
export interface ShopEntry {
  /** Keys its rows, webhook path and status line. */
  readonly name: string;
  /** `env:NAME`, `file:PATH`, or the key itself (in a file of mode 0600 only). */
  readonly apiKey: string;
  /** When not the default. */
  readonly baseUrl?: string;
  /** Webhook signing secrets, each written like `apiKey`. */
  readonly webhookSecrets?: readonly string[];
  /** Largest share of the shop's rate limit the sync may take, in (0, 1]. */
  readonly maxShare?: number;
  /** @default all */
  readonly tables?: readonly string[];
  /** Sets the rate limit before the first answer tells it. */
  readonly plan?: string;
}

/** The registry file: `{ "shops": [ ... ] }`. */
export interface ShopRegistryFile {
  readonly shops: readonly ShopEntry[];
}

/** A shop ready to use: its secrets read on each call, so a rotated key or secret needs no restart. */
export interface RegisteredShop {
  readonly name: string;
  readonly baseUrl?: string;
  readonly maxShare?: number;
  readonly tables?: readonly string[];
  readonly plan?: string;
  /** Pass it as the client's `apiKey` function. */
  readonly apiKey: () => string;
  /** Current webhook secrets, as written. */
  readonly webhookSecrets: () => string[];
}

/** Where the shops come from. */
export type ShopSource =
  | string
  | readonly ShopEntry[]
  | (() => readonly ShopEntry[] | Promise<readonly ShopEntry[]>);

/** A registry that cannot be used as written: the message names the shop and the field. No secret in it. */
export class ShopRegistryError extends ShopError {
  static override readonly [ERROR_CLASS]: string = 'ShopRegistryError';
  override readonly name: string = 'ShopRegistryError';
}

/** A shop name: a path segment and a database key, so letters, digits, `-` and `_`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
const FIELDS = new Set(['name', 'apiKey', 'baseUrl', 'webhookSecrets', 'maxShare', 'tables', 'plan']);
/** A `file:` secret is read again at most this often. */
const FILE_TTL_MS = 1000;

/**
 * Reads and checks the shops, resolving every secret reference now.
 * @example
 * const shops = await loadShops('./shops.json');
 * const fleet = new ShopFleet({ shops, db: 'postgres://localhost/shops' });
 */
export async function loadShops(source: ShopSource): Promise<RegisteredShop[]> {
  if (typeof source === 'string') return readShopsFile(source);
  let entries: readonly ShopEntry[];
  try {
    entries = typeof source === 'function' ? await source() : source;
  } catch (error) {
    throw new ShopRegistryError('the shop registry function threw', { cause: error });
  }
  return checkEntries(entries, { base: process.cwd(), literals: true, where: 'the shop list' });
}

async function readShopsFile(path: string): Promise<RegisteredShop[]> {
  const where = path;
  let text: string;
  let mode: number;
  try {
    text = readFileSync(path, 'utf8');
    mode = statSync(path).mode;
  } catch (error) {
    throw new ShopRegistryError(`cannot read the shop registry ${where}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = /\.ya?ml$/i.test(path) ? (await loadYaml()).parse(text) : JSON.parse(text);
  } catch (error) {
    if (error instanceof ShopRegistryError) throw error;
    throw new ShopRegistryError(`${where} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}`, {
      cause: error,
    });
  }
  const shops = (parsed as { shops?: unknown } | null)?.shops;
  if (!Array.isArray(shops)) throw new ShopRegistryError(`${where} must hold { "shops": [ ... ] }`);
  // A literal secret is fine in a file only its owner can read (the sandbox writes such a file).
  const privateFile = process.platform === 'win32' || (mode & 0o077) === 0;
  return checkEntries(shops as ShopEntry[], { base: dirname(resolve(path)), literals: privateFile, where });
}

async function loadYaml(): Promise<{ parse(text: string): unknown }> {
  try {
    return (await import('yaml')) as { parse(text: string): unknown };
  } catch (error) {
    throw new ShopRegistryError('a YAML shop registry needs the `yaml` package: npm install yaml', {
      cause: error,
    });
  }
}

interface CheckContext {
  readonly base: string;
  readonly literals: boolean;
  readonly where: string;
}

function checkEntries(entries: readonly unknown[], context: CheckContext): RegisteredShop[] {
  if (!Array.isArray(entries)) throw new ShopRegistryError(`${context.where} must be a list of shops`);
  const seen = new Set<string>();
  return entries.map((raw, index) => {
    const entry = raw as Record<string, unknown> | null;
    const at = `${context.where}, shop ${index + 1}`;
    if (entry === null || typeof entry !== 'object') throw new ShopRegistryError(`${at} is not an object`);
    const unknown = Object.keys(entry).filter((key) => !FIELDS.has(key));
    if (unknown.length > 0) {
      throw new ShopRegistryError(
        `${at} has unknown field(s) ${unknown.join(', ')}: known are ${[...FIELDS].join(', ')}`,
      );
    }
    const name = entry.name;
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw new ShopRegistryError(
        `${at}: name must be 1-63 letters, digits, - or _ (it names rows and a webhook path)`,
      );
    }
    if (seen.has(name.toLowerCase()))
      throw new ShopRegistryError(`${context.where}: the name ${name} is used twice`);
    seen.add(name.toLowerCase());
    const field = `${context.where}, shop ${name}`;
    if (typeof entry.apiKey !== 'string' || entry.apiKey === '')
      throw new ShopRegistryError(`${field}: apiKey is required`);
    const apiKey = secretReader(entry.apiKey, `${field}, apiKey`, context);
    const secretRefs = entry.webhookSecrets ?? [];
    if (!Array.isArray(secretRefs) || secretRefs.some((ref) => typeof ref !== 'string' || ref === '')) {
      throw new ShopRegistryError(`${field}: webhookSecrets must be a list of non-empty strings`);
    }
    const secrets = secretRefs.map((ref, i) =>
      secretReader(ref as string, `${field}, webhookSecrets[${i}]`, context),
    );
    if (entry.baseUrl !== undefined && (typeof entry.baseUrl !== 'string' || !URL.canParse(entry.baseUrl))) {
      throw new ShopRegistryError(`${field}: baseUrl is not a URL`);
    }
    const maxShare = entry.maxShare;
    if (maxShare !== undefined && (typeof maxShare !== 'number' || !(maxShare > 0 && maxShare <= 1))) {
      throw new ShopRegistryError(`${field}: maxShare must be a number above 0 and at most 1`);
    }
    const tables = entry.tables;
    if (tables !== undefined && (!Array.isArray(tables) || tables.some((t) => typeof t !== 'string'))) {
      throw new ShopRegistryError(`${field}: tables must be a list of table names`);
    }
    if (entry.plan !== undefined && typeof entry.plan !== 'string')
      throw new ShopRegistryError(`${field}: plan must be a string`);
    // Every reference must resolve now: a missing variable fails at start, not at the first call.
    apiKey();
    for (const secret of secrets) secret();
    return {
      name,
      ...(entry.baseUrl !== undefined && { baseUrl: entry.baseUrl as string }),
      ...(maxShare !== undefined && { maxShare }),
      ...(tables !== undefined && { tables: [...(tables as string[])] }),
      ...(entry.plan !== undefined && { plan: entry.plan as string }),
      apiKey,
      webhookSecrets: () => secrets.map((secret) => secret()),
    };
  });
}

/** A function reading one secret as written: `env:NAME` and `file:PATH` are read again on later calls. */
function secretReader(ref: string, field: string, context: CheckContext): () => string {
  if (ref.startsWith('env:')) {
    const variable = ref.slice(4);
    return () => {
      const value = process.env[variable];
      if (value === undefined || value === '')
        throw new ShopRegistryError(`${field}: the variable ${variable} is not set`);
      return value;
    };
  }
  if (ref.startsWith('file:')) {
    const path = isAbsolute(ref.slice(5)) ? ref.slice(5) : resolve(context.base, ref.slice(5));
    let cached: { value: string; at: number } | null = null;
    return () => {
      const now = performance.now();
      if (cached !== null && now - cached.at < FILE_TTL_MS) return cached.value;
      let value: string;
      try {
        value = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
      } catch (error) {
        throw new ShopRegistryError(`${field}: cannot read ${path}`, { cause: error });
      }
      if (value === '') throw new ShopRegistryError(`${field}: ${path} is empty`);
      cached = { value, at: now };
      return value;
    };
  }
  if (!context.literals) {
    throw new ShopRegistryError(
      `${field} is written in ${context.where}, which others may read: use env:NAME or file:PATH, or chmod 600 the file`,
    );
  }
  return () => ref;
}

/** Writes a registry file only its owner can read (mode 0600): the sandbox's shops, a partner's export. */
export function writeShopsFile(path: string, shops: readonly ShopEntry[]): void {
  const file: ShopRegistryFile = { shops };
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  // The mode above applies only to a new file: an existing one is narrowed too.
  if (process.platform !== 'win32') chmodSync(path, 0o600);
}
