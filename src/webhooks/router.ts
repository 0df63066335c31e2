import type { EventType } from './event-types.js';
import type { ShopEvent, ShopEventOf, UnknownShopEvent } from './events.js';
import { isKnownEventType } from './events.js';
import type { WebhookDelivery } from './headers.js';
import type { WebhookRequest } from './request.js';

/** Where an event came from, passed to every handler beside the event. */
export interface EventContext {
  /** `feed` for an event read back by the catch-up. */
  readonly source: 'webhook' | 'feed';
  /** Null for an event from the feed. */
  readonly delivery: WebhookDelivery | null;
  /** The request a webhook came in on; absent for the feed. */
  readonly request?: WebhookRequest;
}

/** Handles one event; a throw means "not processed": the claim is released and the event retried. */
export type EventHandler<E = ShopEvent> = (event: E, context: EventContext) => unknown;

/**
 * Routes events to handlers by type; unknown types go to {@link EventRouter.onUnknown}.
 * @example
 * const router = new EventRouter().on('range.reservation.booked', (event) => book(event.data.object.id));
 */
export class EventRouter {
  readonly #handlers = new Map<string, EventHandler<never>[]>();
  #unknown: EventHandler<UnknownShopEvent> | undefined;

  /** Adds a handler for one event type; handlers of a type run in order added. */
  on<T extends EventType>(type: T, handler: EventHandler<ShopEventOf<T>>): this {
    const list = this.#handlers.get(type) ?? [];
    list.push(handler as EventHandler<never>);
    this.#handlers.set(type, list);
    return this;
  }

  /** The fallback for event types this SDK does not know. */
  onUnknown(handler: EventHandler<UnknownShopEvent>): this {
    this.#unknown = handler;
    return this;
  }

  /** Runs the handlers of `event.type` in turn. */
  readonly dispatch = async (event: ShopEvent, context: EventContext): Promise<void> => {
    const handlers = this.#handlers.get(event.type) as EventHandler<ShopEvent>[] | undefined;
    if (handlers) {
      for (const handler of handlers) await handler(event, context);
    } else if (!isKnownEventType(event.type) && this.#unknown) {
      await this.#unknown(event as UnknownShopEvent, context);
    }
  };
}
