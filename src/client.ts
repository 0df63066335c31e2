import { APIPromise, type APIResponse, LazyAPIResponse } from './core/api/api-promise.js';
import {
  defineOperation,
  type HttpMethod,
  type Operation,
  type OperationResult,
} from './core/api/operation.js';
import { fetchPage, type PagePromise } from './core/api/pagination.js';
import type { RawRequestParams, RawRequestParamsWithBody, RequestParams } from './core/api/params.js';
import type { RequestOptions } from './core/api/request-options.js';
import { ShopError } from './core/errors/shop-error.js';
import {
  type ClientOptions,
  type DerivedOptions,
  deriveClientOptions,
  resolveClientOptions,
} from './core/options/client-options.js';
import { Transport } from './core/transport/transport.js';
import type { z } from './internal/schema-types.js';
import { ShopClientResources } from './resources/client-resources.js';
import { verifyWebhook } from './webhooks/verify.js';

export type { ClientOptions, DerivedOptions };

/** `shop.webhooks`: webhook helpers for code that holds a client; nothing here calls the API. */
export interface Webhooks {
  /** `verifyWebhook` from `shop-mgmt/webhooks`. */
  readonly verify: typeof verifyWebhook;
}

/** The one `shop.webhooks` object; it holds no state, so every client shares it. */
const webhooks: Webhooks = Object.freeze({ verify: verifyWebhook });

/** The transport a derived client is built on, passed through the constructor (not a public option). */
const DERIVED: unique symbol = Symbol('shop-mgmt.derivedTransport');

/**
 * The client of the Shop Management API.
 * @example
 * const shop = new ShopClient({ apiKey: process.env.SHOP_API_KEY, baseUrl: 'https://api.example-shop.com' });
 * for await (const reservation of shop.range.reservations.list({ status: 'booked' })) console.log(reservation.id);
 */
export class ShopClient extends ShopClientResources {
  readonly #transport: Transport;

  constructor(options: ClientOptions = {}) {
    super();
    const derived = (options as { [DERIVED]?: Transport })[DERIVED];
    this.#transport = derived ?? new Transport(resolveClientOptions(options));
  }

  /**
   * A client with some options changed, sharing this one's connection, logger, base URL and pacing.
   * @example
   * const tenant = shop.withOptions({ apiKey: tenantKey, headers: { 'x-tenant': 'north' } });
   */
  withOptions(options: DerivedOptions): ShopClient {
    const transport = this.#transport.derive(deriveClientOptions(this.#transport.config, options));
    return new ShopClient({ [DERIVED]: transport } as ClientOptions);
  }

  // Resource groups are generated in ShopClientResources.

  /** Webhook helpers; no API call. */
  get webhooks(): Webhooks {
    return webhooks;
  }
  // --------------------------------------------------------------------------------- end of resource groups

  /** Calls one single-record operation (from `operations` or `defineOperation`); lists use {@link ShopClient.list}. */
  request<Op extends Operation & { readonly pagination: null }>(
    operation: Op,
    params: RequestParams = {},
    options?: RequestOptions,
  ): APIPromise<OperationResult<Op>> {
    if (operation.pagination === 'cursor') {
      return rejected(new ShopError(`${operation.id} is a cursor-paginated list: call shop.list() with it`));
    }
    return new APIPromise(
      this.#transport
        .request<OperationResult<Op>>(operation, params, options)
        .then(
          (received): APIResponse<OperationResult<Op>> =>
            new LazyAPIResponse(received.data, received.response, received.call),
        ),
    );
  }

  /** Calls one cursor-paginated list operation; see {@link PagePromise} for walking it. */
  list<Op extends Operation & { readonly pagination: 'cursor' }>(
    operation: Op,
    params: RequestParams = {},
    options?: RequestOptions,
  ): PagePromise<OperationResult<Op>> {
    return fetchPage(this.#transport.pages<OperationResult<Op>>(operation, params, options));
  }

  // Endpoints the SDK has no method for yet, through the same transport; `{name}` filled from `params.path`.

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

  /** DELETE at an endpoint the SDK has no method for yet; a 204 resolves to `{ id, deleted: true }`. */
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
