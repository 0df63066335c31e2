import type { EventType } from '../generated/event-types.js';
import type { FaultOptions } from '../testing/http/faults.js';
import type { SandboxSubscription } from '../testing/options.js';
import { processAccess, type SandboxProcessAccess } from '../testing/process-access.js';
import type { Sandbox } from '../testing/sandbox.js';
import type { ShopsSandbox } from '../testing/shops.js';
import { triggerList } from '../testing/triggers.js';
import { logStream } from './log-stream.js';
import { applyOverrides, type OverrideMap, overrideProblems } from './overrides.js';

/** The control surface of a `shop-mgmt sandbox` process: never under /v1, never part of the API. */
export const CONTROL_PREFIX = '/_sandbox/';

/**
 * Answers `/_sandbox/...` requests of the sandbox process (the routes docs/cli.md lists). Each needs a key
 * the sandbox accepts, as `Authorization: Bearer`.
 */
export class SandboxControl {
  readonly #access: SandboxProcessAccess;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly ownKey: string,
    private readonly onChange: () => void,
  ) {
    this.#access = processAccess(sandbox);
  }

  async handle(request: Request): Promise<Response> {
    if (!this.#authorised(request)) {
      return answer(401, {
        error: 'the control surface needs a key this sandbox issued (Authorization: Bearer)',
      });
    }
    const path = new URL(request.url).pathname.slice(CONTROL_PREFIX.length);
    if (request.method === 'GET' && path === 'triggers') return answer(200, { triggers: triggerList() });
    if (request.method === 'GET' && path === 'logs') {
      return logStream(this.#access.activity, request.headers.get('last-event-id'));
    }
    if (request.method === 'POST' && path === 'trigger') {
      // One at a time: an armed override belongs to the trigger that armed it.
      const turn = this.#queue.then(() => this.#trigger(request));
      this.#queue = turn.catch(() => undefined);
      return turn;
    }
    return answer(404, { error: `no control route ${request.method} ${CONTROL_PREFIX}${path}` });
  }

  async #trigger(request: Request): Promise<Response> {
    const body = (await request.json().catch(() => null)) as { type?: unknown; override?: unknown } | null;
    const type = typeof body?.type === 'string' ? body.type : '';
    const known = triggerList().find((entry) => entry.type === type);
    const problems = known?.supported ? overrideProblems(type, body?.override) : [];
    if (problems.length > 0) return answer(400, { error: problems.join('\n'), invalid: true });
    const override = (body?.override ?? {}) as OverrideMap;
    if (!known?.supported) {
      return answer(422, {
        error: known
          ? `the sandbox cannot make ${type}: ${known.reason}`
          : `${JSON.stringify(type)} is not a known event type`,
        unsupported: true,
      });
    }
    // The trigger acts as the shop's staff: a key the API would refuse a change must not make one here.
    const missing = this.#access.shortOfFullKey(request.headers.get('authorization'));
    if (missing.length > 0) {
      return answer(403, {
        error: `trigger acts as the shop's staff (API calls, the register, the owner) and needs a full key: write on every resource at every location, as \`shop-mgmt sandbox\` prints without --permissions or --locations. This key lacks ${missing.join(', ')}`,
        forbidden: true,
      });
    }
    let overridden = false;
    if (Object.keys(override).length > 0) {
      this.#access.armOverride(
        type,
        (object) => applyOverrides(type as EventType, object, override),
        () => {
          overridden = true;
        },
      );
    }
    try {
      const { did, events } = await this.sandbox.trigger(type, { apiKey: this.ownKey });
      this.onChange();
      return answer(200, { type, did, events, overridden });
    } catch (error) {
      this.onChange();
      return answer(409, { error: `could not make ${type}: ${(error as Error).message}` });
    } finally {
      this.#access.disarmOverride();
    }
  }

  /** The key check of the API (failed attempts count toward its lockout), without a request's rate cost. */
  #authorised(request: Request): boolean {
    return this.#access.authenticate(request.headers.get('authorization'));
  }
}

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The per-shop routes of a many-shop sandbox process (`sandbox --shops`), beside each shop's own. */
const SHOP_ROUTE = /^shops\/([^/]+)\/(revoke-key|faults|range-addon|subscription|clock|endpoints)$/;
const SUBSCRIPTIONS = new Set<SandboxSubscription>([
  'active',
  'api_not_in_plan',
  'trial_expired',
  'billing_past_due',
  'subscription_canceled',
  'plan_required',
]);

/**
 * The control surface of `shop-mgmt sandbox --shops N`. Every route needs a key of one of the shops. The
 * routes of one shop (`/_sandbox/triggers`, `trigger`, `logs`) act on the shop of the key given; the
 * `/_sandbox/shops/...` and `/_sandbox/walkers` routes (docs/cli.md) act on the shop they name, whichever
 * shop's key is given (so a revoked shop can still be inspected with another's).
 */
export class ShopsControl {
  readonly #controls = new Map<string, SandboxControl>();
  readonly #revoked = new Set<string>();

  constructor(private readonly shops: ShopsSandbox) {
    for (const shop of shops.shops) {
      this.#controls.set(shop.name, new SandboxControl(shop.sandbox, shop.sandbox.createKey(), () => {}));
    }
  }

  async handle(request: Request): Promise<Response> {
    const authorization = request.headers.get('authorization');
    const caller = this.shops.shopOf(authorization);
    if (!caller || !processAccess(caller.sandbox).authenticate(authorization)) {
      return answer(401, {
        error: "the control surface needs a key of one of this sandbox's shops (Authorization: Bearer)",
      });
    }
    const path = new URL(request.url).pathname.slice(CONTROL_PREFIX.length);
    if (path === 'shops' && request.method === 'GET') return answer(200, { shops: this.#list() });
    if (path === 'walkers' && request.method === 'GET') return answer(200, { walkers: this.shops.walkers() });
    if (path === 'walkers/reset' && request.method === 'POST') {
      this.shops.resetWalkers();
      return answer(200, { walkers: this.shops.walkers() });
    }
    if (path === 'endpoints' && request.method === 'POST') {
      const body = await jsonBody(request);
      return this.#endpoints(body, null);
    }
    const route = SHOP_ROUTE.exec(path);
    if (!route) return this.#controls.get(caller.name)!.handle(request);
    const name = decodeURIComponent(route[1]!);
    if (!this.shops.shops.some((shop) => shop.name === name)) {
      return answer(404, { error: `no shop named ${JSON.stringify(name)} in this sandbox` });
    }
    const body = request.method === 'POST' ? await jsonBody(request) : {};
    if (body === null) return answer(400, { error: 'the body must be a JSON object' });
    try {
      return this.#shopRoute(name, route[2]!, request.method, body);
    } catch (error) {
      if ((error as Error).name === 'SandboxUsageError')
        return answer(400, { error: (error as Error).message });
      throw error;
    }
  }

  #shopRoute(name: string, action: string, method: string, body: Record<string, unknown>): Response {
    const shop = this.shops.shop(name);
    const sandbox = shop.sandbox;
    if (action === 'faults' && method === 'DELETE') {
      sandbox.faults.clear();
      return answer(200, { shop: name, faults: 0 });
    }
    if (method !== 'POST')
      return answer(405, { error: `${method} is not allowed on shops/${name}/${action}` });
    switch (action) {
      case 'revoke-key':
        sandbox.revokeKey(shop.apiKey);
        this.#revoked.add(name);
        return answer(200, { shop: name, revoked: true });
      case 'faults': {
        const { times, path, ...rest } = body as FaultOptions & { times?: number | null; path?: string };
        // Until DELETE by default: a shop that answers 500s is what the fleet's tests want.
        sandbox.faults.next({
          ...rest,
          times: typeof times === 'number' ? times : Number.MAX_SAFE_INTEGER,
          ...(typeof path === 'string' ? { path } : {}),
        });
        return answer(200, { shop: name, faults: sandbox.faults.pending });
      }
      case 'range-addon':
        if (typeof body.enabled !== 'boolean')
          return answer(400, { error: 'give { "enabled": true | false }' });
        sandbox.setRangeAddon(body.enabled);
        return answer(200, { shop: name, rangeAddon: body.enabled });
      case 'subscription':
        if (!SUBSCRIPTIONS.has(body.state as SandboxSubscription)) {
          return answer(400, { error: `give { "state": one of ${[...SUBSCRIPTIONS].join(', ')} }` });
        }
        sandbox.setSubscription(body.state as SandboxSubscription);
        return answer(200, { shop: name, subscription: body.state });
      case 'clock': {
        if (typeof body.advance === 'string' || typeof body.advance === 'number') {
          sandbox.clock.advance(body.advance);
        } else if (typeof body.set === 'string' || typeof body.set === 'number') {
          sandbox.clock.set(body.set);
        } else {
          return answer(400, { error: 'give { "advance": "1h" } or { "set": "<ISO-8601>" }' });
        }
        return answer(200, { shop: name, now: sandbox.clock.now().toISOString() });
      }
      default:
        return this.#endpoints(body, name);
    }
  }

  /** Adds a webhook endpoint signed with the shop's secret to one shop, or to each (`{shop}` in the URL). */
  #endpoints(body: Record<string, unknown> | null, only: string | null): Response {
    if (body === null || typeof body.url !== 'string') {
      return answer(400, {
        error: 'give { "url": "http://127.0.0.1:3000/webhooks/{shop}", "types"?: [...] }',
      });
    }
    const types = Array.isArray(body.types) ? (body.types as string[]) : undefined;
    try {
      const ids = this.shops.addWebhookEndpoints(body.url, {
        ...(types ? { types } : {}),
        ...(only ? { only: [only] } : {}),
      });
      return answer(200, { endpoints: ids });
    } catch (error) {
      if ((error as Error).name === 'SandboxUsageError')
        return answer(400, { error: (error as Error).message });
      throw error;
    }
  }

  #list(): unknown[] {
    return this.shops.shops.map((shop) => ({
      name: shop.name,
      now: shop.sandbox.clock.now().toISOString(),
      keyRevoked: this.#revoked.has(shop.name),
      faults: shop.sandbox.faults.pending,
      walkers: shop.walkers(),
      endpoints: shop.sandbox.webhooks.endpoints().map((endpoint) => endpoint.url),
    }));
  }
}

async function jsonBody(request: Request): Promise<Record<string, unknown> | null> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
