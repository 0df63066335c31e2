import { GENERATED_HEADER } from './emit-schemas.js';
import type { EventModel } from './model.js';
import { jsDoc, quote } from './names.js';
import { deref, type OpenApiDocument } from './spec.js';
import { ERROR_CODE_COMPONENT } from './zod-emitter.js';

/** event-types.ts: the event types as plain data. No zod import: the verify-only webhooks entry loads it. */
export function emitEventTypes(events: readonly EventModel[]): string {
  return `${GENERATED_HEADER}
${jsDoc([
  'Every event type the reference lists (section 6), in its order. Later API versions may add types, so',
  'code receiving events must still accept a type that is not in this list.',
])}export const EVENT_TYPES = [${events.map((e) => quote(e.type)).join(', ')}] as const;

${jsDoc(['An event type this SDK knows, e.g. `range.reservation.booked`.'])}export type EventType = (typeof EVENT_TYPES)[number];
`;
}

/** events.ts: the event type -> payload schema map, its inferred payload types, and the envelope. */
export function emitEvents(events: readonly EventModel[]): string {
  const schemas = [...new Set(events.map((e) => `${e.payload}Schema`))].sort();
  let entries = '';
  for (const event of events) {
    const summary = event.summary === event.type ? undefined : event.summary;
    entries += jsDoc([summary, event.description].filter((line): line is string => Boolean(line)));
    entries += `${quote(event.type)}: ${event.payload}Schema,\n`;
  }
  const schemaImport = schemas.length > 0 ? `import { ${schemas.join(', ')} } from './schemas.js';\n` : '';
  // The payload types are the record interfaces (documented fields only), not the schemas' loose outputs.
  const payloads = [...new Set(events.map((e) => e.payload))].sort();
  const typeImport =
    payloads.length > 0 ? `import type { ${payloads.join(', ')} } from './schemas.js';\n` : '';
  const payloadMap = events.map((event) => `${quote(event.type)}: ${event.payload};\n`).join('');
  return `${GENERATED_HEADER}import type * as z from 'zod/mini';
import type { EventType } from './event-types.js';
${typeImport}${schemaImport}
${jsDoc(['The envelope of every event, in the feed and in webhook deliveries; `data.object` is the changed resource.'])}export { type Event, EventSchema } from './schemas.js';

${jsDoc([
  'The schema of `data.object` for each known event type. Webhook payloads equal the API resource shapes',
  '(reference section 6), so most entries are the resource schemas themselves.',
])}export const EVENT_PAYLOAD_SCHEMAS = {
${entries}} as const satisfies Record<EventType, z.ZodMiniType>;

${jsDoc([
  'The type of `data.object` for each known event type: its record interface (documented fields only; a',
  'field a later API version adds is kept at runtime, not typed).',
])}export type EventPayloadMap = {
${payloadMap}};

${EVENT_UNION}`;
}

/**
 * The typed event union over EventPayloadMap, fixed text: the webhooks (parser) and the generated
 * `shop.events.list` both use it, so it lives here rather than in either.
 */
const EVENT_UNION = `declare const unknownEventTypeBrand: unique symbol;

/**
 * An event type this version of the SDK does not know yet (the API adds types within /v1). It is a plain
 * string at runtime. The brand keeps \`switch (event.type)\` narrowing the known events (a bare \`string\` here
 * would stop TypeScript narrowing the union at all); to compare with a type newer than the SDK, widen first:
 * \`(event.type as string) === 'range.lane.repainted'\`, or use \`EventRouter.onUnknown\`.
 */
export type UnknownEventType = \`\${string}.\${string}\` & { readonly [unknownEventTypeBrand]: true };

/** The envelope every event shares, in webhook deliveries and in the feed alike (reference section 2). */
export interface ShopEventEnvelope {
  /** \`evt_...\`: the dedupe key, the same in the feed and in every delivery of the event. */
  id: string;
  object: 'event';
  /** The date-form API version the payload follows, e.g. \`2026-09-24\`. */
  api_version: string;
  /** When the change happened (ISO-8601 UTC). */
  created_at: string;
  /** false on the sandbox. */
  livemode: boolean;
}

/** An event of one known type, with its typed \`data.object\`. */
export interface ShopEventOf<T extends EventType> extends ShopEventEnvelope {
  type: T;
  data: { object: EventPayloadMap[T]; [key: string]: unknown };
}

/** Any event of a type the SDK knows, discriminated by \`type\`. */
export type KnownShopEvent = { [T in EventType]: ShopEventOf<T> }[EventType];

/** An event of a type newer than this SDK: its payload is an open object. */
export interface UnknownShopEvent extends ShopEventEnvelope {
  type: UnknownEventType;
  data: { object: { object?: string; [key: string]: unknown }; [key: string]: unknown };
}

/**
 * An event as delivered by a webhook or read from the feed. \`switch (event.type)\` narrows \`data.object\`;
 * types the SDK does not know yet arrive as {@link UnknownShopEvent} and never fail to parse.
 */
export type ShopEvent = KnownShopEvent | UnknownShopEvent;
`;

/** error-codes.ts: code -> HTTP status from `ErrorCode`'s `x-http-status`. No zod import (webhooks entry). */
export function emitErrorCodes(doc: OpenApiDocument): string {
  const component = doc.components?.schemas?.[ERROR_CODE_COMPONENT];
  if (!component) throw new Error(`components.schemas.${ERROR_CODE_COMPONENT} is missing`);
  const schema = deref(doc, component);
  const codes = (schema.enum ?? []).filter((c): c is string => typeof c === 'string');
  if (codes.length === 0) throw new Error(`${ERROR_CODE_COMPONENT} has no enum of codes`);
  const status = schema['x-http-status'] ?? {};
  const described =
    (schema as { 'x-enum-descriptions'?: Record<string, string> })['x-enum-descriptions'] ?? {};

  let entries = '';
  for (const code of codes) {
    const value = status[code];
    if (value === undefined)
      throw new Error(`${ERROR_CODE_COMPONENT}: x-http-status has no entry for ${code}`);
    if (value !== null && !Number.isInteger(value))
      throw new Error(`${ERROR_CODE_COMPONENT}: bad status for ${code}`);
    entries += jsDoc([described[code] ?? '']);
    entries += `${code}: ${value === null ? 'null' : value},\n`;
  }
  for (const code of Object.keys(status)) {
    if (!codes.includes(code))
      throw new Error(`${ERROR_CODE_COMPONENT}: x-http-status names ${code}, which is not in enum`);
  }

  return `${GENERATED_HEADER}
${jsDoc([
  'The HTTP status each error code (reference section 7) comes with; null where the reference does not',
  'show one. Branch on the code, not on the status: several codes share a status.',
])}export const ERROR_CODE_STATUS = {
${entries}} as const;

${jsDoc([
  schema.description ?? 'An error code of the API (reference section 7).',
  '',
  'Only the codes this SDK knows: a code added later still reaches `ShopApiError.code` as a string.',
])}export type ErrorCode = keyof typeof ERROR_CODE_STATUS;

${jsDoc(["Every known error code, in the reference's order."])}export const ERROR_CODES = [${codes.map(quote).join(', ')}] as const;
`;
}
