import type { ShopEntry } from '../sync/fleet/registry.js';
import { SandboxClock } from './clock.js';
import { SandboxUsageError } from './errors.js';
import type { WebhookEndpointOptions } from './events/endpoints.js';
import { ROUTES } from './features/routes.js';
import type { CreateKeyOptions } from './http/keys.js';
import type { ClientInfo, SandboxAnswer, SandboxRequest } from './http/pipeline.js';
import { RouteTable } from './http/route-table.js';
import { createHandlers, type SandboxHandlers } from './msw.js';
import { resolveOptions, type SandboxOptions } from './options.js';
import { secretHex } from './random.js';
import { Sandbox } from './sandbox.js';
import type { ListenOptions, SandboxServer } from './server.js';
import { DEFAULT_WALK_IDLE_MS, nextCursorOf, WalkCounter, type WalkerCount } from './walkers.js';
import type { SharedWorld } from './world.js';

/** How often a listening many-shop sandbox with autoDeliver looks for deliveries due (as `Sandbox.listen`). */
const AUTO_DELIVER_EVERY_MS = 250;
/** A shop name: a path segment and a database key (the registry's rule). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
/** The most shops one sandbox serves. */
export const MAX_SHOPS = 10_000;

/** One shop's own options in `createShopsSandbox({ shops: [...] })`, laid over the common ones. */
export interface SandboxShopOptions extends Omit<SandboxOptions, 'baseUrl' | 'fetch'> {
  /** The shop's name (letters, digits, `-`, `_`). @default `shop-<n>`, n from 1 */
  name?: string;
  /** The shop's printed key: its permissions, locations, allowlist. @default a full key */
  key?: CreateKeyOptions;
}

/** Options of `createShopsSandbox`: the common options of every shop, and the shops. */
export interface ShopsSandboxOptions extends SandboxOptions {
  /** How many shops (`shop-1` ... `shop-N`), or each one's own options. */
  shops: number | readonly SandboxShopOptions[];
  /** Seed of the first shop: shop n (from 1) gets `seed + n - 1` unless its own options set one. @default 1 */
  seed?: number;
  /**
   * How long a list walk stays under way after a page answered with a next cursor, waiting for its next
   * page (wall clock, ms): see `walkers()`. @default 5000
   */
  walkIdleMs?: number;
}

/** One shop of a many-shop sandbox. */
export interface SandboxShop {
  /** The shop's name: its registry entry, its webhook path (`/webhooks/<name>`). */
  readonly name: string;
  /** The shop's key (a full key unless its options said otherwise): requests with it reach this shop. */
  readonly apiKey: string;
  /** The secret its webhook endpoints sign with when added by `addWebhookEndpoints` (`whsec_...`). */
  readonly webhookSecret: string;
  /** The shop itself: its clock, faults, register, webhooks, keys, plan and add-ons. */
  readonly sandbox: Sandbox;
  /** Its list walkers now and at most (see `ShopsSandbox.walkers`). */
  walkers(): WalkerCount;
}

/** Options of `ShopsSandbox.listen()`. */
export interface ShopsListenOptions extends ListenOptions {
  /** @internal Paths served beside the shops with web Request and Response (the CLI's control routes). */
  control?: {
    readonly serves: (path: string) => boolean;
    readonly handle: (request: Request, info: ClientInfo) => Promise<Response>;
  };
}

interface ShopSlot extends SandboxShop {
  readonly counter: WalkCounter;
}

/**
 * Many independent shops behind one base URL, told apart by key as the service does; a key of no shop gets
 * 401 INVALID_API_KEY (WRONG_ENVIRONMENT for the other environment). Failed key attempts count per caller
 * address across shops.
 */
export class ShopsSandbox {
  /** The origin msw intercepts: give it to the clients as baseUrl when using `handlers`. */
  readonly baseUrl: string;
  /** The shops, in order: `shop-1` first. */
  readonly shops: readonly SandboxShop[];

  readonly #slots: readonly ShopSlot[];
  readonly #byName = new Map<string, ShopSlot>();
  readonly #byKey = new Map<string, ShopSlot>();
  /** Answers requests that carry no shop's key: a sandbox that never issues one. */
  readonly #nobody: Sandbox;
  readonly #routes = new RouteTable(ROUTES);
  readonly #autoDeliver: boolean;
  #listeningUrl: string | null = null;
  #mswHandlers: SandboxHandlers | undefined;

  /** @internal Use `createShopsSandbox`. */
  constructor(options: ShopsSandboxOptions) {
    const { shops, walkIdleMs, ...common } = options;
    const specs = shopSpecs(shops);
    const idle = walkIdleMs ?? DEFAULT_WALK_IDLE_MS;
    if (typeof idle !== 'number' || !Number.isFinite(idle) || idle < 0) {
      throw new SandboxUsageError('walkIdleMs must be a number of milliseconds, 0 or more');
    }
    const resolved = resolveOptions(common);
    this.baseUrl = resolved.baseUrl;
    this.#autoDeliver = resolved.autoDeliver;
    const base = common.seed ?? 1;
    // One clock for the failed key attempts of every shop: the shops' own clocks may be moved apart.
    const attemptsClock = new SandboxClock(resolved.now, resolved.clock, resolved.clockSpeed);
    const shared: SharedWorld = { failedAttempts: { failed: new Map(), clock: attemptsClock } };
    this.#nobody = new Sandbox({ ...common, seed: base }, shared);
    const seen = new Set<string>();
    this.#slots = specs.map((spec, index) => {
      const { name: given, key, ...own } = spec;
      const name = given ?? `shop-${index + 1}`;
      if (typeof name !== 'string' || !NAME.test(name)) {
        throw new SandboxUsageError(
          `shops[${index}].name must be 1-63 letters, digits, - or _ (it names rows and a webhook path)`,
        );
      }
      if (seen.has(name.toLowerCase())) throw new SandboxUsageError(`shop name ${name} is used twice`);
      seen.add(name.toLowerCase());
      // A frozen clock starts at one moment for all; a real one at the present, read as each shop is made.
      const now = own.now ?? common.now ?? (resolved.clock === 'frozen' ? resolved.now : undefined);
      const sandbox = new Sandbox(
        {
          ...common,
          seed: base + index,
          ...own,
          ...(now === undefined ? {} : { now }),
          baseUrl: this.baseUrl,
        },
        shared,
      );
      const counter = new WalkCounter(idle);
      const slot: ShopSlot = {
        name,
        apiKey: sandbox.createKey(key),
        webhookSecret: `whsec_${secretHex(24)}`,
        sandbox,
        counter,
        walkers: () => counter.count(),
      };
      this.#byName.set(name, slot);
      this.#byKey.set(slot.apiKey, slot);
      return slot;
    });
    this.shops = this.#slots;
  }

  /** The shop named `name`; a SandboxUsageError for a name this sandbox does not have. */
  shop(name: string): SandboxShop {
    const slot = this.#byName.get(name);
    if (!slot) throw new SandboxUsageError(`No shop named ${JSON.stringify(name)} in this sandbox`);
    return slot;
  }

  /**
   * The shop a request's `Authorization: Bearer <key>` belongs to (any key the shop issued: its printed
   * one, `sandbox.createKey()`, a rolled one), or null.
   */
  shopOf(authorization: string | null): SandboxShop | null {
    return this.#slotOf(authorization);
  }

  /**
   * The registry of these shops for `loadShops` / `writeShopsFile` (`shop-mgmt sync --shops`): each
   * shop's name, key and plan, the secrets its webhook endpoints sign with now (its `webhookSecret` while it
   * has none), and `baseUrl`: the URL `listen()` serves on, else this sandbox's `baseUrl`.
   */
  registry(baseUrl: string = this.#listeningUrl ?? this.baseUrl): ShopEntry[] {
    return this.#slots.map((slot) => {
      const world = slot.sandbox.world;
      const secrets = [...new Set(world.endpoints.all().flatMap((endpoint) => endpoint.secrets))];
      return {
        name: slot.name,
        apiKey: slot.apiKey,
        baseUrl,
        webhookSecrets: secrets.length > 0 ? secrets : [slot.webhookSecret],
        plan: world.state.shop.settings.plan,
      };
    });
  }

  /**
   * Adds a webhook endpoint to every shop (or those in `only`), signed with each shop's `webhookSecret`:
   * `url` is a function of the shop's name, or a string where `{shop}` stands for it, e.g.
   * `http://127.0.0.1:3000/webhooks/{shop}`. Every event type unless `types` says. Returns the endpoint ids
   * by shop name.
   */
  addWebhookEndpoints(
    url: string | ((shop: string) => string),
    options: Partial<Omit<WebhookEndpointOptions, 'url' | 'secret'>> & { only?: readonly string[] } = {},
  ): Record<string, string> {
    const { only, types, ...endpoint } = options;
    const targets = only ? only.map((name) => this.shop(name) as ShopSlot) : this.#slots;
    const ids: Record<string, string> = {};
    for (const slot of targets) {
      const target =
        typeof url === 'function' ? url(slot.name) : url.replaceAll('{shop}', encodeURIComponent(slot.name));
      ids[slot.name] = slot.sandbox.webhooks.addEndpoint({
        ...endpoint,
        types: types ?? ['*'],
        url: target,
        secret: slot.webhookSecret,
      }).id;
    }
    return ids;
  }

  /**
   * The list walkers of every shop by name: `now` (walks under way on the busiest key and path) and `max`. A
   * walk is one key's chain of cursor pages on one path; it stops counting when its next page is
   * `walkIdleMs` late.
   */
  walkers(): Record<string, WalkerCount> {
    return Object.fromEntries(this.#slots.map((slot) => [slot.name, slot.counter.count()]));
  }

  /** Forgets the highest walker counts (walks under way still count). */
  resetWalkers(): void {
    for (const slot of this.#slots) slot.counter.reset();
  }

  /** Sends every shop's deliveries due now; resolves when all have been attempted. */
  async flush(): Promise<void> {
    await Promise.all(this.#slots.map((slot) => slot.sandbox.webhooks.flush()));
  }

  /** Every shop as one function: a web Request in, a Response out (`Response.error()` for a dropped connection). */
  handle = async (request: Request, info?: ClientInfo): Promise<Response> => {
    const answered = await this.answer(request, info);
    if (answered === null) return Response.error();
    return new Response(answered.body as BodyInit, { status: answered.status, headers: answered.headers });
  };

  /** A `fetch` served by the shops in-process (a dropped connection rejects with a TypeError, as fetch does). */
  fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const response = await this.handle(request);
    if (response.type === 'error')
      throw new TypeError('fetch failed', { cause: new Error('sandbox fault: connection reset') });
    return response;
  };

  /** msw request handlers for every path under `baseUrl` (see `Sandbox.handlers`). */
  get handlers(): SandboxHandlers {
    this.#mswHandlers ??= createHandlers(this.baseUrl, (request) => this.handle(request));
    return this.#mswHandlers;
  }

  /** @internal The router: the shop of the request's key answers it, counting its list walks. */
  async answer(request: SandboxRequest, info?: ClientInfo): Promise<SandboxAnswer | null> {
    const authorization = request.headers.get('Authorization');
    const slot = this.#slotOf(authorization);
    if (!slot) return this.#nobody.answer(request, info);
    const method = request.method.toUpperCase();
    if (method !== 'GET') return slot.sandbox.answer(request, info);
    const url = new URL(request.url);
    const match = this.#routes.match(method, url.pathname);
    if (match.kind !== 'found' || !match.route.list) return slot.sandbox.answer(request, info);
    const keyId = bearer(authorization) ?? '';
    const walk = slot.counter.page(keyId, url.pathname, url.searchParams.get('cursor'));
    let answered: SandboxAnswer | null = null;
    try {
      answered = await slot.sandbox.answer(request, info);
      return answered;
    } finally {
      const ok = answered !== null && answered.status >= 200 && answered.status < 300;
      slot.counter.answered(keyId, url.pathname, walk, ok, ok ? nextCursorOf(answered!.body) : null);
    }
  }

  /**
   * Serves every shop over real HTTP on 127.0.0.1 (Node only), one URL for all: the shop is the key's.
   * With autoDeliver, a timer sends each shop's webhook retries as its clock reaches them.
   */
  async listen(options: ShopsListenOptions = {}): Promise<SandboxServer> {
    const server = await import('./server.js');
    const { control, ...listenOptions } = options;
    const answer = (request: SandboxRequest, info: ClientInfo) => this.answer(request, info);
    const served = control
      ? await server.listenBoth(answer, control.handle, control.serves, listenOptions)
      : await server.listenAnswers(answer, listenOptions);
    this.#listeningUrl = served.url;
    const timer = this.#autoDeliver
      ? setInterval(() => {
          for (const slot of this.#slots) slot.sandbox.world.deliveries.deliverSoon();
        }, AUTO_DELIVER_EVERY_MS)
      : null;
    (timer as { unref?: () => void } | null)?.unref?.();
    return {
      url: served.url,
      close: () => {
        if (timer) clearInterval(timer);
        return served.close();
      },
    };
  }

  #slotOf(authorization: string | null): ShopSlot | null {
    const secret = bearer(authorization);
    if (secret === null) return null;
    const known = this.#byKey.get(secret);
    if (known) return known;
    // A key issued after the start (`shop.sandbox.createKey()`, a rolled key): found in its shop, remembered.
    const found = this.#slots.find((slot) => slot.sandbox.world.keys.issued(secret));
    if (found) this.#byKey.set(secret, found);
    return found ?? null;
  }
}

function bearer(authorization: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? match[1]! : null;
}

function shopSpecs(shops: ShopsSandboxOptions['shops']): readonly SandboxShopOptions[] {
  if (typeof shops === 'number') {
    if (!Number.isSafeInteger(shops) || shops < 1 || shops > MAX_SHOPS) {
      throw new SandboxUsageError(`shops must be a whole number from 1 to ${MAX_SHOPS}, got ${shops}`);
    }
    return Array.from({ length: shops }, () => ({}));
  }
  if (!Array.isArray(shops) || shops.length < 1 || shops.length > MAX_SHOPS) {
    throw new SandboxUsageError(`shops must be a count or a list of 1 to ${MAX_SHOPS} shops' options`);
  }
  return shops;
}

/**
 * Creates a sandbox of many shops at one base URL, told apart by key: shop n is a seeded `Sandbox` with seed
 * `seed + n - 1`.
 *
 * @example
 * const fleet = createShopsSandbox({ shops: 3, clock: 'real' });
 * const server = await fleet.listen();
 * fleet.addWebhookEndpoints('http://127.0.0.1:3000/webhooks/{shop}');
 * const shops = fleet.registry(); // [{ name: 'shop-1', apiKey, baseUrl: server.url, webhookSecrets }, ...]
 */
export function createShopsSandbox(options: ShopsSandboxOptions): ShopsSandbox {
  return new ShopsSandbox(options);
}
