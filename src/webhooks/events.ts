import type { ShopEvent } from '../generated/events.js';
import { WebhookVerificationError } from './errors.js';
import { EVENT_TYPES, type EventPayloadMap, type EventType } from './event-types.js';

// The event union is generated from the spec (types only).
export type {
  KnownShopEvent,
  ShopEvent,
  ShopEventEnvelope,
  ShopEventOf,
  UnknownEventType,
  UnknownShopEvent,
} from '../generated/events.js';
export type { EventPayloadMap, EventType };

const knownTypes: ReadonlySet<string> = new Set(EVENT_TYPES);

/** True when this SDK knows the event type. */
export function isKnownEventType(type: string): type is EventType {
  return knownTypes.has(type);
}

function invalidPayload(message: string): WebhookVerificationError {
  return new WebhookVerificationError('invalid_payload', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses an authentic body into an event, checking the envelope only, not the payload's fields. */
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
