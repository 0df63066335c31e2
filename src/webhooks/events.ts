import { WebhookVerificationError } from './errors.js';
import { EVENT_TYPES, type EventPayloadMap, type EventType } from './event-types.js';

export type { EventPayloadMap, EventType };

declare const unknownEventTypeBrand: unique symbol;

/**
 * An event type this version of the SDK does not know yet (the API adds types within /v1). It is a plain
 * string at runtime. The brand keeps `switch (event.type)` narrowing the known events (a bare `string` here
 * would stop TypeScript narrowing the union at all); to compare with a type newer than the SDK, widen first:
 * `(event.type as string) === 'range.lane.repainted'`, or use `EventRouter.onUnknown`.
 */
export type UnknownEventType = `${string}.${string}` & { readonly [unknownEventTypeBrand]: true };

/** The envelope every event shares, in webhook deliveries and in the feed alike (reference section 2). */
export interface ShopEventEnvelope {
  /** `evt_...`: the dedupe key, the same in the feed and in every delivery of the event. */
  id: string;
  object: 'event';
  /** The date-form API version the payload follows, e.g. `2026-09-24`. */
  api_version: string;
  /** When the change happened (ISO-8601 UTC). */
  created_at: string;
  /** false on the sandbox. */
  livemode: boolean;
}

/** An event of one known type, with its typed `data.object`. */
export interface ShopEventOf<T extends EventType> extends ShopEventEnvelope {
  type: T;
  data: { object: EventPayloadMap[T]; [key: string]: unknown };
}

/** Any event of a type the SDK knows, discriminated by `type`. */
export type KnownShopEvent = { [T in EventType]: ShopEventOf<T> }[EventType];

/** An event of a type newer than this SDK: its payload is an open object. */
export interface UnknownShopEvent extends ShopEventEnvelope {
  type: UnknownEventType;
  data: { object: { object?: string; [key: string]: unknown }; [key: string]: unknown };
}

/**
 * An event as delivered by a webhook or read from the feed. `switch (event.type)` narrows `data.object`;
 * types the SDK does not know yet arrive as {@link UnknownShopEvent} and never fail to parse.
 */
export type ShopEvent = KnownShopEvent | UnknownShopEvent;

const knownTypes: ReadonlySet<string> = new Set(EVENT_TYPES);

/** True when this version of the SDK knows the event type (and has a typed payload for it). */
export function isKnownEventType(type: string): type is EventType {
  return knownTypes.has(type);
}

function invalidPayload(message: string): WebhookVerificationError {
  return new WebhookVerificationError('invalid_payload', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses an authentic body into an event. Checks the envelope (id, object, type, created_at, data.object),
 * not the payload's fields: a payload is the API resource as the server sent it, unknown fields included.
 */
export function parseEvent(text: string): ShopEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidPayload('The signature is valid but the body is not JSON.');
  }
  if (!isObject(value))
    throw invalidPayload('The body is JSON but not an object: expected an event envelope.');
  const problem = envelopeProblem(value);
  if (problem) throw invalidPayload(`The body is not an event envelope: ${problem}.`);
  return value as unknown as ShopEvent;
}

function envelopeProblem(value: Record<string, unknown>): string | null {
  if (typeof value.id !== 'string' || value.id === '') return 'id is missing or not a string';
  if (value.object !== 'event') return 'object is not "event"';
  if (typeof value.type !== 'string' || value.type === '') return 'type is missing or not a string';
  if (typeof value.created_at !== 'string') return 'created_at is missing or not a string';
  if (!isObject(value.data) || !isObject(value.data.object)) return 'data.object is missing or not an object';
  return null;
}
