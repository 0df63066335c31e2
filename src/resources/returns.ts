import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { ReturnsListParams } from '../generated/params.js';
import type { Return } from '../generated/schemas.js';

/** `shop.returns`: processed returns of point-of-sale and online orders, read only. */
export class Returns extends APIResource {
  /**
   * Lists returns at the key's locations, oldest first. `updated_since` filters on creation time
   * (returns have no `updated_at`).
   *
   * Permission: `returns:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * const returns = await shop.returns.list({ source: 'online', updated_since: new Date(Date.now() - 86_400_000) });
   */
  list(params?: ReturnsListParams, options?: RequestOptions): PagePromise<Return> {
    return this._client.list(operations['returns.list'], { query: params }, options);
  }

  /**
   * Reads one return with its lines.
   *
   * Permission: `returns:read`.
   * Errors: 404 `NOT_FOUND`.
   * @example
   * const ret = await shop.returns.retrieve(880);
   * const damaged = ret.lines.filter((line) => line.condition === 'damaged');
   */
  retrieve(id: number, options?: RequestOptions): APIPromise<Return> {
    return this._client.request(operations['returns.retrieve'], { path: { id } }, options);
  }
}
