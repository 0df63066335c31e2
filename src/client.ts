import type { z } from 'zod';
import { APIPromise, type APIResponse, LazyAPIResponse } from './core/api-promise.js';
import { ShopError } from './core/errors/shop-error.js';
import { isLogLevel, type Logger, type LogLevel, SdkLogger } from './core/logger.js';
import { defineOperation, type HttpMethod, type Operation } from './core/operation.js';
import { fetchPage, type PagePromise } from './core/pagination.js';
import type { RawRequestParams, RawRequestParamsWithBody, RequestParams } from './core/params.js';
import type { RequestOptions } from './core/request-options.js';
import { isPacing, MIN_REQUESTS_PER_MINUTE, Throttle, type ThrottleOption } from './core/throttle.js';
import { type FetchLike, Transport } from './core/transport.js';
import { readEnv } from './internal/env.js';
import { countProblem, secondsProblem, timeoutProblem } from './internal/limits.js';
import { RETRY_BACKOFF, type RetryBackoff } from './internal/test-hooks.js';
import {
  AccountPayments,
  CardTransactions,
  Coupons,
  CurrentKey,
  Customers,
  Events,
  GiftCertificates,
  Inventory,
  Invoices,
  Locations,
  MembershipPlans,
  Memberships,
  Orders,
  Products,
  PurchaseOrders,
  Returns,
  ShootingRange,
  StoreCreditBalances,
  type Webhooks,
  webhooks,
} from './resources/index.js';

/** Options of {@link ShopClient}. Every one is optional; the API key and base URL also come from the environment. */
export interface ClientOptions {
  /**
   * The API key, sent as `Authorization: Bearer <key>`; never logged.
   * @default process.env.SHOP_API_KEY
   */
  apiKey?: string;
  /**
   * Where the API lives, without `/v1` (the SDK adds it; a trailing `/v1` or slash is accepted and not doubled).
   * @default process.env.SHOP_API_BASE_URL
   * @example 'https://api.example-shop.com'
   */
  baseUrl?: string;
  /**
   * Milliseconds one attempt may take, headers and body together.
   * @default 30_000
   */
  timeout?: number;
  /**
   * Retries after the first attempt, for 429, 500/502/503/504, `IDEMPOTENCY_IN_PROGRESS`, connection errors
   * and timeouts; a PATCH (no Idempotency-Key, not idempotent) only for 429. Nothing else is retried.
   * @default 2
   */
  maxRetries?: number;
  /**
   * The longest `Retry-After` the SDK waits for. A 429 asking for longer is raised at once as a
   * `RateLimitError` carrying `retryAfter`, so a daily cap does not hang a request for hours.
   * @default 60
   */
  maxRetryAfterSeconds?: number;
  /** A `fetch` to send with instead of the runtime's (a proxy agent, a recording double). */
  fetch?: FetchLike;
  /**
   * Where to log; lines never hold the API key.
   * @default console
   */
  logger?: Logger;
  /**
   * How much to log; `debug` logs method, path, status, attempt and duration of every attempt.
   * @default process.env.SHOP_LOG, else 'warn'
   */
  logLevel?: LogLevel;
  /**
   * Spaces requests to stay under the plan's per-minute limit instead of collecting 429s: a number of
   * requests per minute, or `'auto'` to pace from the `X-RateLimit-*` headers. Off by default.
   * @example { throttle: { requestsPerMinute: 60 } } // Established plan
   */
  throttle?: ThrottleOption;
  /** @internal Back-off timing for the SDK's own tests. */
  [RETRY_BACKOFF]?: RetryBackoff;
}

function configError(message: string): ShopError {
  return new ShopError(`new ShopClient(): ${message}`);
}

function resolveApiKey(option: string | undefined): string {
  const apiKey = option ?? readEnv('SHOP_API_KEY');
  if (apiKey === undefined || apiKey === '') {
    throw configError('no API key: pass `apiKey` or set the SHOP_API_KEY environment variable');
  }
  if (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw configError('the API key must be a string of printable characters without spaces');
  }
  return apiKey;
}

/** The base URL without trailing slashes and without a `/v1` the caller wrote, which operation paths carry. */
function resolveBaseUrl(option: string | undefined): string {
  const raw = option ?? readEnv('SHOP_API_BASE_URL');
  if (raw === undefined || raw === '') {
    throw configError('no base URL: pass `baseUrl` or set the SHOP_API_BASE_URL environment variable');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw configError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(String(raw))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`baseUrl must use http or https, got ${url.protocol}`);
  }
  if (url.username || url.password)
    throw configError('baseUrl must not hold credentials; pass `apiKey` instead');
  if (url.search || url.hash) throw configError('baseUrl must not have a query string or fragment');
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return url.origin + path;
}

/** A numeric option: the fallback when left out, else `value` when `problemOf` finds nothing wrong. */
function resolveNumber(
  value: number | undefined,
  fallback: number,
  name: string,
  problemOf: (value: unknown) => string | null,
): number {
  if (value === undefined) return fallback;
  const problem = problemOf(value);
  if (problem !== null) throw configError(`${name} ${problem}`);
  return value;
}

function resolveThrottle(option: ThrottleOption | undefined): Throttle | null {
  if (option === undefined) return null;
  if (option !== 'auto' && !isPacing(option?.requestsPerMinute)) {
    throw configError(
      `throttle must be 'auto' or { requestsPerMinute: <positive number, at least ${MIN_REQUESTS_PER_MINUTE}> }`,
    );
  }
  return new Throttle(option);
}

function resolveLogLevel(option: LogLevel | undefined): LogLevel {
  if (option !== undefined) {
    if (!isLogLevel(option))
      throw configError(`logLevel must be debug, info, warn, error or off, got ${option}`);
    return option;
  }
  const fromEnv = readEnv('SHOP_LOG');
  return isLogLevel(fromEnv) ? fromEnv : 'warn';
}

/**
 * The client of the Shop Management API.
 * @example
 * const shop = new ShopClient({ apiKey: process.env.SHOP_API_KEY, baseUrl: 'https://api.example-shop.com' });
 * for await (const reservation of shop.range.reservations.list({ status: 'booked' })) console.log(reservation.id);
 */
export class ShopClient {
  readonly #transport: Transport;

  constructor(options: ClientOptions = {}) {
    const apiKey = resolveApiKey(options.apiKey);
    const timeout = resolveNumber(options.timeout, 30_000, 'timeout', timeoutProblem);
    const backoff = options[RETRY_BACKOFF] ?? { baseMs: 500, capMs: 8_000 };
    const customFetch = options.fetch;
    this.#transport = new Transport({
      baseUrl: resolveBaseUrl(options.baseUrl),
      apiKey,
      // Looked up per call, not captured: test tools (msw) and polyfills replace globalThis.fetch later.
      fetch: customFetch ?? ((url, init) => globalThis.fetch(url, init)),
      timeout,
      retry: {
        maxRetries: resolveNumber(options.maxRetries, 2, 'maxRetries', countProblem),
        maxRetryAfterSeconds: resolveNumber(
          options.maxRetryAfterSeconds,
          60,
          'maxRetryAfterSeconds',
          secondsProblem,
        ),
        backoffBaseMs: backoff.baseMs,
        backoffCapMs: backoff.capMs,
      },
      logger: new SdkLogger(options.logger ?? console, resolveLogLevel(options.logLevel), [apiKey]),
      throttle: resolveThrottle(options.throttle),
    });
  }

  // ---------------------------------------------------------------------------------------------------
  // Resource groups (src/resources/): each built on first use, so a client that touches one group builds one.
  // ---------------------------------------------------------------------------------------------------

  #range: ShootingRange | undefined;
  #membershipPlans: MembershipPlans | undefined;
  #memberships: Memberships | undefined;
  #cardTransactions: CardTransactions | undefined;
  #returns: Returns | undefined;
  #events: Events | undefined;
  #locations: Locations | undefined;
  #products: Products | undefined;
  #inventory: Inventory | undefined;
  #purchaseOrders: PurchaseOrders | undefined;
  #orders: Orders | undefined;
  #customers: Customers | undefined;
  #storeCredit: StoreCreditBalances | undefined;
  #invoices: Invoices | undefined;
  #accountPayments: AccountPayments | undefined;
  #giftCertificates: GiftCertificates | undefined;
  #coupons: Coupons | undefined;
  #me: CurrentKey | undefined;

  /** The shooting range: resources, classes, sessions, availability, reservations, rentals, rental checkouts (needs the Range add-on). */
  get range(): ShootingRange {
    this.#range ??= new ShootingRange(this);
    return this.#range;
  }

  /** Membership plans: list. */
  get membershipPlans(): MembershipPlans {
    this.#membershipPlans ??= new MembershipPlans(this);
    return this.#membershipPlans;
  }

  /** Memberships: list, retrieve, create, cancel, useGuestPass. */
  get memberships(): Memberships {
    this.#memberships ??= new Memberships(this);
    return this.#memberships;
  }

  /** Card transactions, for settlement reconciliation: list, retrieve. */
  get cardTransactions(): CardTransactions {
    this.#cardTransactions ??= new CardTransactions(this);
    return this.#cardTransactions;
  }

  /** Returns: list, retrieve. */
  get returns(): Returns {
    this.#returns ??= new Returns(this);
    return this.#returns;
  }

  /** The 30-day event feed behind the webhooks: list. */
  get events(): Events {
    this.#events ??= new Events(this);
    return this.#events;
  }

  /** Locations (stores): list, update. */
  get locations(): Locations {
    this.#locations ??= new Locations(this);
    return this.#locations;
  }

  /** Products: list, update. */
  get products(): Products {
    this.#products ??= new Products(this);
    return this.#products;
  }

  /** Inventory levels: list, listSerialized, adjust, set. */
  get inventory(): Inventory {
    this.#inventory ??= new Inventory(this);
    return this.#inventory;
  }

  /** Purchase orders: create, update, submit, cancel, receive. */
  get purchaseOrders(): PurchaseOrders {
    this.#purchaseOrders ??= new PurchaseOrders(this);
    return this.#purchaseOrders;
  }

  /** Orders from outside channels: create, void. */
  get orders(): Orders {
    this.#orders ??= new Orders(this);
    return this.#orders;
  }

  /** A customer's house account (`account`, `account.payments`) and store credit (`storeCredit`). */
  get customers(): Customers {
    this.#customers ??= new Customers(this);
    return this.#customers;
  }

  /** Store credit across customers: list. */
  get storeCredit(): StoreCreditBalances {
    this.#storeCredit ??= new StoreCreditBalances(this);
    return this.#storeCredit;
  }

  /** House-account invoices: list, retrieve. */
  get invoices(): Invoices {
    this.#invoices ??= new Invoices(this);
    return this.#invoices;
  }

  /** Payments received on house accounts: list. */
  get accountPayments(): AccountPayments {
    this.#accountPayments ??= new AccountPayments(this);
    return this.#accountPayments;
  }

  /** Gift certificates: issue, redeem, reverse, reload, adjust, disable, enable. */
  get giftCertificates(): GiftCertificates {
    this.#giftCertificates ??= new GiftCertificates(this);
    return this.#giftCertificates;
  }

  /** Coupons: create, update, delete. */
  get coupons(): Coupons {
    this.#coupons ??= new Coupons(this);
    return this.#coupons;
  }

  /** The calling key: retrieve. */
  get me(): CurrentKey {
    this.#me ??= new CurrentKey(this);
    return this.#me;
  }

  /**
   * Webhook helpers: `shop.webhooks.verify` is `verifyWebhook` from `shop-sdk/webhooks`, for code that holds
   * a client. It makes no API call.
   */
  get webhooks(): Webhooks {
    return webhooks;
  }
  // --------------------------------------------------------------------------------- end of resource groups

  /**
   * Calls one single-record operation: params checked against its schemas, `data` validated against its
   * result schema. Resource methods are built on it; pass an entry of the exported `operations` table, or
   * one from `defineOperation` for an endpoint the SDK has no method for yet. A cursor list goes through
   * {@link ShopClient.list}.
   */
  request<Op extends Operation & { readonly pagination: null }>(
    operation: Op,
    params: RequestParams = {},
    options?: RequestOptions,
  ): APIPromise<z.output<Op['result']>> {
    if (operation.pagination === 'cursor') {
      return rejected(new ShopError(`${operation.id} is a cursor-paginated list: call shop.list() with it`));
    }
    return new APIPromise(
      this.#transport
        .request<z.output<Op['result']>>(operation, params, options)
        .then(
          (received): APIResponse<z.output<Op['result']>> =>
            new LazyAPIResponse(received.data, received.response),
        ),
    );
  }

  /** Calls one cursor-paginated list operation; see {@link PagePromise} for walking it. */
  list<Op extends Operation & { readonly pagination: 'cursor' }>(
    operation: Op,
    params: RequestParams = {},
    options?: RequestOptions,
  ): PagePromise<z.output<Op['result']>> {
    return fetchPage(this.#transport.pages<z.output<Op['result']>>(operation, params, options));
  }

  // ---------------------------------------------------------------------------------------------------
  // Endpoints the SDK has no method for yet (the API adds them within /v1, reference section 9): the same
  // transport as every method (key, retries, Idempotency-Key on POST, envelope, typed errors). The path is
  // the full one with /v1; `{name}` placeholders are filled from `params.path`.
  // ---------------------------------------------------------------------------------------------------

  /**
   * GET an endpoint the SDK has no method for yet; `data` is `unknown` unless `params.result` gives its schema.
   * @example
   * const widget = await shop.get('/v1/widgets/{id}', { path: { id: 5 }, result: WidgetSchema });
   */
  get<Result extends z.ZodType = z.ZodUnknown>(
    path: string,
    params?: RawRequestParams<Result>,
    options?: RequestOptions,
  ): APIPromise<z.output<Result>> {
    return this.#raw('GET', path, params, options);
  }

  /**
   * POST to an endpoint the SDK has no method for yet, with an Idempotency-Key as every POST.
   * @example
   * await shop.post('/v1/widgets/{id}/polish', { path: { id: 5 }, body: { grit: 400 } }, { idempotencyKey });
   */
  post<Result extends z.ZodType = z.ZodUnknown>(
    path: string,
    params?: RawRequestParamsWithBody<Result>,
    options?: RequestOptions,
  ): APIPromise<z.output<Result>> {
    return this.#raw('POST', path, params, options);
  }

  /** PATCH an endpoint the SDK has no method for yet. */
  patch<Result extends z.ZodType = z.ZodUnknown>(
    path: string,
    params?: RawRequestParamsWithBody<Result>,
    options?: RequestOptions,
  ): APIPromise<z.output<Result>> {
    return this.#raw('PATCH', path, params, options);
  }

  /**
   * DELETE at an endpoint the SDK has no method for yet. An answer with no body (204) resolves to
   * `{ id, deleted: true }`, `id` from the path's last `{placeholder}` (`{ deleted: true }` without one).
   */
  delete<Result extends z.ZodType = z.ZodUnknown>(
    path: string,
    params?: RawRequestParams<Result>,
    options?: RequestOptions,
  ): APIPromise<z.output<Result>> {
    return this.#raw('DELETE', path, params, options);
  }

  #raw<Result extends z.ZodType>(
    method: HttpMethod,
    path: string,
    params: RawRequestParamsWithBody<Result> = {},
    options: RequestOptions | undefined,
  ): APIPromise<z.output<Result>> {
    let operation: Operation<Result> & { readonly pagination: null };
    try {
      operation = defineOperation<Result>({ method, path, result: params.result });
    } catch (error) {
      return rejected(error);
    }
    return this.request(operation, { path: params.path, query: params.query, body: params.body }, options);
  }
}

/** A call that fails before it starts, still as an APIPromise (so `.withResponse()` rejects too). */
function rejected<T>(error: unknown): APIPromise<T> {
  return new APIPromise<T>(Promise.reject(error));
}
