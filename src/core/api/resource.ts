import type { APIPromise } from './api-promise.js';
import type { Operation, OperationResult } from './operation.js';
import type { PagePromise } from './pagination.js';
import type { RequestParams } from './params.js';
import type { RequestOptions } from './request-options.js';

/** The part of `ShopClient` a resource group calls, so core need not import the client. */
export interface ResourceClient {
  /** Calls a single-record operation. */
  request<Op extends Operation & { readonly pagination: null }>(
    operation: Op,
    params?: RequestParams,
    options?: RequestOptions,
  ): APIPromise<OperationResult<Op>>;
  /** Calls a cursor-paginated list operation. */
  list<Op extends Operation & { readonly pagination: 'cursor' }>(
    operation: Op,
    params?: RequestParams,
    options?: RequestOptions,
  ): PagePromise<OperationResult<Op>>;
}

/** The base of every resource group; each method is one expression over `this._client`. */
export abstract class APIResource {
  constructor(protected readonly _client: ResourceClient) {}
}
