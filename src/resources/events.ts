import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { EventsListParams } from '../generated/params.js';
import type { Event as FeedEvent } from '../generated/schemas.js';

/** `shop.events`: the 30-day catch-up feed behind the webhooks. */
export class Events extends APIResource {
  /**
   * Lists events of the last 30 days, oldest first, in the same envelope as webhook deliveries (dedupe
   * on `id` across both). Only types some active webhook endpoint subscribes to are recorded, only
   * readable resources and the key's locations are included, and unknown event types come through as
   * they are. The feed needs no permission of its own.
   *
   * Permission: none.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * for await (const event of shop.events.list({ updated_since: lastSeen })) await apply(event);
   */
  list(params?: EventsListParams, options?: RequestOptions): PagePromise<FeedEvent> {
    return this._client.list(operations['events.list'], { query: params }, options);
  }
}
