import type { APIPromise } from './api-promise.js';
import type { Operation, OperationResult } from './operation.js';
import type { PagePromise } from './pagination.js';
import type { RequestParams } from './params.js';
import type { RequestOptions } from './request-options.js';

/**
 * What a resource group calls: `ShopClient`'s `request` and `list`, named here so that core does not import
 * the client (src/client.ts sits above core). A `ShopClient` is one.
 */
export interface ResourceClient {
  /** Calls one single-record operation (`ShopClient.request`). */
  request<Op extends Operation & { readonly pagination: null }>(
    operation: Op,
    params?: RequestParams,
    options?: RequestOptions,
  ): APIPromise<OperationResult<Op>>;
  /** Calls one cursor-paginated list operation (`ShopClient.list`). */
  list<Op extends Operation & { readonly pagination: 'cursor' }>(
    operation: Op,
    params?: RequestParams,
    options?: RequestOptions,
  ): PagePromise<OperationResult<Op>>;
}

/**
 * The base of every resource group (`shop.range.reservations`, ...). A resource method is one expression
 * over `this._client.request(...)` or `this._client.list(...)`; retries, validation and errors live in the
 * transport, never in a resource.
 */
export abstract class APIResource {
  constructor(protected readonly _client: ResourceClient) {}
}
