import { seedRecords } from './bulk-records.js';
import type { SandboxClock } from './clock.js';
import { SandboxWebhooks } from './events/webhooks.js';
import { ROUTES } from './features/routes.js';
import { seedShopState } from './features/seeders.js';
import type { SandboxFaults } from './http/faults.js';
import type { CreateKeyOptions, RollKeyOptions } from './http/keys.js';
import {
  answerRequest,
  type ClientInfo,
  handleRequest,
  type SandboxAnswer,
  type SandboxRequest,
} from './http/pipeline.js';
import { RouteTable } from './http/route-table.js';
import { createHandlers, type SandboxHandlers } from './msw.js';
import {
  resolveOptions,
  type SandboxOptions,
  type SandboxPlan,
  type SandboxSubscription,
} from './options.js';
import { SandboxRegister } from './register/index.js';
import { SandboxOwner } from './register/owner.js';
import type { ListenOptions, SandboxServer } from './server.js';
import type { SentEmail } from './state/shop.js';
import type { TriggerResult } from './triggers.js';
import { createWorld, type SandboxWorld, type SharedWorld } from './world.js';

/** How often a listening sandbox with autoDeliver looks for deliveries due: retries are minutes apart. */
const AUTO_DELIVER_EVERY_MS = 250;

/**
 * A stateful simulator of the Shop Management API: keys, plan gates, state machines, pagination,
 * idempotency, rate limits, events and signed webhooks, on a clock the test controls.
 */
export class Sandbox {
  /** The origin msw intercepts: give it to the client as baseUrl when using `handlers`. */
  readonly baseUrl: string;
  /** The sandbox's time; every timestamp, window and schedule reads it. */
  readonly clock: SandboxClock;
  /** What staff do at the counter (close a visit, rent out and take back guns). */
  readonly register: SandboxRegister;
  /** What the owner does in the back office (add a location or product, issue an invoice). */
  readonly owner: SandboxOwner;
  /** Webhook endpoints, deliveries, retries and resends. */
  readonly webhooks: SandboxWebhooks;
  /** Injected server faults, delays and dropped connections. */
  readonly faults: SandboxFaults;

  /** @internal */
  readonly world: SandboxWorld;
  private readonly routeTable = new RouteTable(ROUTES);
  private mswHandlers: SandboxHandlers | undefined;

  /** @internal Use `createSandbox` (`shared`: what the shops of `createShopsSandbox` share). */
  constructor(options: SandboxOptions = {}, shared?: SharedWorld) {
    this.world = createWorld(resolveOptions(options), shared);
    seedShopState(this.world);
    seedRecords(this.world, this.world.options.records);
    this.baseUrl = this.world.options.baseUrl;
    this.clock = this.world.clock;
    this.register = new SandboxRegister(this.world);
    this.owner = new SandboxOwner(this.world);
    this.webhooks = new SandboxWebhooks(this.world);
    this.faults = this.world.faults;
  }

  /** The whole sandbox as one function: a web Request in, a Response out (`Response.error()` for a dropped connection). */
  handle = (request: Request, info?: ClientInfo): Promise<Response> =>
    handleRequest(this.world, this.routeTable, request, info);

  /** @internal The pipeline without web Request and Response, as `listen()` serves it (the many-shop router's path). */
  answer(request: SandboxRequest, info?: ClientInfo): Promise<SandboxAnswer | null> {
    return answerRequest(this.world, this.routeTable, request, info);
  }

  /** `handle` as made: `listen()` serves it without web Requests and Responses unless it was replaced. */
  readonly #ownHandle = this.handle;

  /**
   * A `fetch` served by the sandbox in-process, for `new ShopClient({ fetch: sandbox.fetch })`. A dropped
   * connection rejects with a TypeError, as fetch does.
   */
  fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const response = await this.handle(request);
    if (response.type === 'error')
      throw new TypeError('fetch failed', { cause: new Error('sandbox fault: connection reset') });
    return response;
  };

  /**
   * msw request handlers for every path under `baseUrl`: `setupServer(...sandbox.handlers)`. Typed without
   * msw (so the testing types need no msw installed); for msw's own `HttpHandler` type, and in a bundle
   * for Workers or browsers, use `sandboxHandlers(sandbox)` from `shop-mgmt/testing/msw`.
   */
  get handlers(): SandboxHandlers {
    this.mswHandlers ??= createHandlers(this.baseUrl, (request) => this.handle(request));
    return this.mswHandlers;
  }

  /**
   * Serves the sandbox over real HTTP on 127.0.0.1 (Node only). With `autoDeliver`, a timer sends webhook
   * retries as the clock reaches them while the server runs; it never keeps the process alive.
   */
  async listen(options?: ListenOptions): Promise<SandboxServer> {
    const server = await import('./server.js');
    // A `handle` replaced by the caller (to watch or alter requests) is what the server serves; the sandbox's
    // own is served on the direct path, which writes the same answers without web Request and Response.
    const served =
      this.handle === this.#ownHandle
        ? await server.listenAnswers(
            (request, info) => answerRequest(this.world, this.routeTable, request, info),
            options,
          )
        : await server.listen(this.handle, options);
    if (!this.world.options.autoDeliver) return served;
    const timer = setInterval(() => this.world.deliveries.deliverSoon(), AUTO_DELIVER_EVERY_MS);
    (timer as { unref?: () => void }).unref?.();
    return {
      url: served.url,
      close: () => {
        clearInterval(timer);
        return served.close();
      },
    };
  }

  #triggerKey: string | undefined;

  /**
   * Makes one event of `type` happen as in a shop: through the SDK's client or at the register. Rejects with
   * SandboxUsageError for a type the sandbox cannot make, or the API's error when a call is refused.
   * @example
   * const { events } = await sandbox.trigger('sale.completed');
   */
  async trigger(type: string, options: { apiKey?: string } = {}): Promise<TriggerResult> {
    const { runTrigger } = await import('./triggers.js');
    if (options.apiKey) return runTrigger(this, options.apiKey, type);
    this.#triggerKey ??= this.createKey();
    return runTrigger(this, this.#triggerKey, type);
  }

  /** Issues an API key. With no argument: write on every resource, at every location. */
  createKey(options?: CreateKeyOptions): string {
    return this.world.keys.create(options);
  }

  /**
   * Revokes a key: from now on it gets 401 INVALID_API_KEY. A rolled key and the key that replaced it are
   * one key, so revoking either revokes both.
   */
  revokeKey(key: string): void {
    this.world.keys.revoke(key);
  }

  /**
   * Rolls a key, as the owner can (reference section 5, rule 4): returns the new key, which has the old
   * one's permissions, locations, allowlist, expiry and Idempotency-Keys. The old key keeps working until
   * the grace period (`graceHours`, 0 to 168, default 24) ends on the sandbox clock, then gets 401
   * INVALID_API_KEY.
   */
  rollKey(key: string, options?: RollKeyOptions): string {
    return this.world.keys.roll(key, options);
  }

  /** Puts the shop's subscription in a state; anything but `active` answers every call with its 402 code. */
  setSubscription(subscription: SandboxSubscription): void {
    this.world.state.shop.settings.subscription = subscription;
  }

  /** Switches the plan (its rate limits apply at once, save figures set by the `rateLimits` option). */
  setPlan(plan: SandboxPlan): void {
    this.world.state.shop.settings.plan = plan;
  }

  /** Turns the Range add-on on or off. */
  setRangeAddon(enabled: boolean): void {
    this.world.state.shop.settings.rangeAddon = enabled;
  }

  /** Emails the shop sent (booking confirmations with waiver links, cancellations), oldest first. */
  sentEmails(): SentEmail[] {
    return this.world.state.shop.outbox.map((email) => ({ ...email }));
  }
}

/**
 * Creates a sandbox with a seeded shop (two locations, lanes, classes, rentals, customers): all features on,
 * Established plan, sandbox keys.
 *
 * @example
 * const sandbox = createSandbox({ seed: 7, now: '2026-10-01T15:00:00Z' });
 * const server = setupServer(...sandbox.handlers);
 * const shop = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: sandbox.baseUrl });
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return new Sandbox(options);
}
