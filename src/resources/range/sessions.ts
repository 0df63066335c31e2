import type { PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../core/request-options.js';
import { APIResource } from '../../core/resource.js';
import { operations } from '../../generated/operations.js';
import type { RangeSessionsListParams } from '../../generated/params.js';
import type { RangeClassSession } from '../../generated/schemas.js';

/** `shop.range.sessions`: scheduled sessions of the range's classes. */
export class RangeSessions extends APIResource {
  /**
   * Lists class sessions by start time; without `from` and `to` the window is now through 30 days ahead.
   * Book seats with `shop.range.reservations.create({ class_session_id, party_size })`.
   *
   * Permission: `range:read`.
   * Errors: 400 `VALIDATION_ERROR` (bad time or cursor), 402 `RANGE_ADDON_REQUIRED`.
   * @example
   * const page = await shop.range.sessions.list({ class_id: 7, from: new Date() });
   * const open = page.data.filter((s) => s.seats_left > 0);
   */
  list(params?: RangeSessionsListParams, options?: RequestOptions): PagePromise<RangeClassSession> {
    return this._client.list(operations['range.sessions.list'], { query: params }, options);
  }
}
