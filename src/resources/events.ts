import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/request-options.js';
import { APIResource } from '../core/resource.js';
import { operations } from '../generated/operations.js';
import type { EventsListParams } from '../generated/params.js';
import type { ShopEvent } from '../webhooks/events.js';

/** `shop.events`: the 30-day catch-up feed behind the webhooks. */
export class Events extends APIResource {
  /**
   * Lists events of the last 30 days, oldest first, in the same envelope as webhook deliveries (dedupe
   * on `id` across both). Only types some active webhook endpoint subscribes to are recorded, only
   * readable resources and the key's locations are included, and unknown event types come through as
   * they are. The feed needs no permission of its own.
   *
   * Each item is a `ShopEvent`, the union the webhooks deliver: `switch (event.type)` narrows
   * `data.object`, so one handler serves deliveries and the feed. The envelope is validated; `data.object`
   * is the resource as the server sent it.
   *
   * Permission: none.
   * Errors: 400 `VALIDATION_ERROR` (bad filter or cursor).
   * @example
   * for await (const event of shop.events.list({ updated_since: lastSeen })) await apply(event);
   */
  list(params?: EventsListParams, options?: RequestOptions): PagePromise<ShopEvent> {
    // The generic envelope schema validated each item; its `type` keys the typed payloads of ShopEvent.
    return this._client.list(
      operations['events.list'],
      { query: params },
      options,
    ) as PagePromise<unknown> as PagePromise<ShopEvent>;
  }
}
