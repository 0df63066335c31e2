import type { EventType } from './event-types.js';
import type { ShopEvent, ShopEventOf, UnknownShopEvent } from './events.js';
import { isKnownEventType } from './events.js';
import type { WebhookDelivery } from './headers.js';
import type { WebhookRequest } from './request.js';

/** Where an event came from, passed to every handler beside the event. */
export interface EventContext {
  /** `webhook` for a delivery, `feed` for an event read back by the catch-up from `GET /v1/events`. */
  readonly source: 'webhook' | 'feed';
  /** The delivery headers of a webhook; null for an event from the feed. */
  readonly delivery: WebhookDelivery | null;
  /**
   * The request a webhook came in on (its URL tells a multi-tenant receiver whose event it is); absent for
   * an event from the feed.
   */
  readonly request?: WebhookRequest;
}

/** Handles one event; a throw (or rejection) means "not processed": the claim is released and retried. */
export type EventHandler<E = ShopEvent> = (event: E, context: EventContext) => unknown;

/**
 * Routes events to handlers by type, each handler getting the event narrowed to its type. Types this SDK
 * does not know yet go to the {@link EventRouter.onUnknown} fallback; known types without a handler are
 * acknowledged and dropped. Pass `router.dispatch` as the `onEvent` of the webhook handler and of the feed
 * catch-up, so both sources reach the same code.
 *
 * @example
 * const router = new EventRouter()
 *   .on('range.reservation.booked', (event) => book(event.data.object.id))
 *   .onUnknown((event) => log.info('new event type', event.type));
 */
export class EventRouter {
  readonly #handlers = new Map<string, EventHandler<never>[]>();
  #unknown: EventHandler<UnknownShopEvent> | undefined;

  /** Adds a handler for one event type; several handlers of one type run in the order added. */
  on<T extends EventType>(type: T, handler: EventHandler<ShopEventOf<T>>): this {
    const list = this.#handlers.get(type) ?? [];
    list.push(handler as EventHandler<never>);
    this.#handlers.set(type, list);
    return this;
  }

  /** The fallback for event types this version of the SDK does not know (the API adds types in /v1). */
  onUnknown(handler: EventHandler<UnknownShopEvent>): this {
    this.#unknown = handler;
    return this;
  }

  /** Runs the handlers of `event.type` one after another; an `onEvent` for the handler and the catch-up. */
  readonly dispatch = async (event: ShopEvent, context: EventContext): Promise<void> => {
    const handlers = this.#handlers.get(event.type) as EventHandler<ShopEvent>[] | undefined;
    if (handlers) {
      for (const handler of handlers) await handler(event, context);
    } else if (!isKnownEventType(event.type) && this.#unknown) {
      await this.#unknown(event as UnknownShopEvent, context);
    }
  };
}
