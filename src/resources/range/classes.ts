import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type { RangeClassesListParams } from '../../generated/params.js';
import type { RangeClass } from '../../generated/schemas.js';

/** `shop.range.classes`: the classes the range offers. */
export class RangeClasses extends APIResource {
  /**
   * Lists the range's classes, oldest first. The reference does not show this list's filters: only
   * `limit` and `cursor` are typed, and any other field you pass is sent as a query parameter.
   *
   * Permission: `range:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad cursor), 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * for await (const c of shop.range.classes.list()) console.log(c.name, c.duration_minutes);
   */
  list(params?: RangeClassesListParams, options?: RequestOptions): PagePromise<RangeClass> {
    return this._client.list(operations['range.classes.list'], { query: params }, options);
  }
}
