import type { EventType } from '../../generated/event-types.js';
import { EVENT_PAYLOAD_SCHEMAS, type EventPayloadMap } from '../../generated/events.js';
import * as Api from '../../generated/schemas.js';
import { deliveryHeaders } from '../../webhooks/delivery-headers.js';
import type { ShopEventOf } from '../../webhooks/events.js';
import type { NodeIncomingMessage } from '../../webhooks/node.js';
import { SandboxUsageError } from '../errors.js';
import { API_VERSION } from '../events/event-permissions.js';
import { fieldAt, knownValuesOf, type Schema, sampleOf, schemaProblem, setAt } from './schema-walk.js';

/** The records `buildRecord` makes, by the name of their kind (the `object` value where they have one). */
export const RECORD_SCHEMAS = {
  account_payment: Api.AccountPaymentSchema,
  card_transaction: Api.CardTransactionSchema,
  coupon: Api.CouponSchema,
  customer: Api.CustomerSchema,
  customer_account: Api.CustomerAccountSchema,
  gift_certificate: Api.GiftCertificateSchema,
  inventory_level: Api.InventoryLevelSchema,
  invoice: Api.InvoiceSchema,
  location: Api.LocationSchema,
  membership: Api.MembershipSchema,
  membership_charge: Api.MembershipChargeSchema,
  membership_plan: Api.MembershipPlanSchema,
  order: Api.OrderSchema,
  product: Api.ProductSchema,
  purchase_order: Api.PurchaseOrderSchema,
  range_availability: Api.RangeAvailabilitySchema,
  range_class: Api.RangeClassSchema,
  range_class_session: Api.RangeClassSessionSchema,
  range_rental: Api.RangeRentalSchema,
  range_rental_checkout: Api.RangeRentalCheckoutSchema,
  range_reservation: Api.RangeReservationSchema,
  range_resource: Api.RangeResourceSchema,
  receiving: Api.ReceivingSchema,
  return: Api.ReturnSchema,
  return_line: Api.ReturnLineSchema,
  serialized_item: Api.SerializedItemSchema,
  store_credit: Api.StoreCreditSchema,
} as const;

/** A kind of record `buildRecord` makes: `membership`, `range_reservation`, ... */
export type RecordKind = keyof typeof RECORD_SCHEMAS;

/** The record type of a kind (the SDK's generated type of it). */
/** The record interface of each kind (its documented fields; a later API version's extra fields are kept at runtime, not typed). */
export interface RecordTypes {
  account_payment: Api.AccountPayment;
  card_transaction: Api.CardTransaction;
  coupon: Api.Coupon;
  customer: Api.Customer;
  customer_account: Api.CustomerAccount;
  gift_certificate: Api.GiftCertificate;
  inventory_level: Api.InventoryLevel;
  invoice: Api.Invoice;
  location: Api.Location;
  membership: Api.Membership;
  membership_charge: Api.MembershipCharge;
  membership_plan: Api.MembershipPlan;
  order: Api.Order;
  product: Api.Product;
  purchase_order: Api.PurchaseOrder;
  range_availability: Api.RangeAvailability;
  range_class: Api.RangeClass;
  range_class_session: Api.RangeClassSession;
  range_rental: Api.RangeRental;
  range_rental_checkout: Api.RangeRentalCheckout;
  range_reservation: Api.RangeReservation;
  range_resource: Api.RangeResource;
  receiving: Api.Receiving;
  return: Api.Return;
  return_line: Api.ReturnLine;
  serialized_item: Api.SerializedItem;
  store_credit: Api.StoreCredit;
}

/** The record type `buildRecord(kind)` returns, e.g. `RecordOf<'membership'>` is `Membership`. */
export type RecordOf<K extends RecordKind> = RecordTypes[K];

/**
 * Fields to set, at any depth; a list given replaces the list. Only the fields the SDK knows (the records'
 * index signature for later API versions is left out), so a misspelt field does not compile.
 */
export type Overrides<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]?: Overrides<T[K]> }
    : T;

/** Options of {@link buildEvent}. */
export interface BuildEventOptions<T extends EventType> {
  /** Fields of `data.object` to set, checked against the type's schema. */
  overrides?: Overrides<EventPayloadMap[T]>;
  /** @default a new `evt_` id */
  id?: string;
  /** @default now */
  createdAt?: string | Date;
}

/**
 * An event of `type` as the service would deliver it, `data.object` built from the generated schema with
 * your `overrides` over it; an override the schema refuses throws a SandboxUsageError.
 *
 * @example
 * const event = buildEvent('range.reservation.booked', { overrides: { id: 42, party_size: 3 } });
 * event.data.object.party_size; // 3, typed as the reservation's
 */
export function buildEvent<T extends EventType>(type: T, options: BuildEventOptions<T> = {}): ShopEventOf<T> {
  const schema = EVENT_PAYLOAD_SCHEMAS[type] as unknown as Schema | undefined;
  if (!schema) throw new SandboxUsageError(`buildEvent: ${JSON.stringify(type)} is not a known event type`);
  const object = build(schema, options.overrides, `buildEvent('${type}')`, statusOf(schema, type));
  const createdAt = options.createdAt === undefined ? new Date() : new Date(options.createdAt);
  if (Number.isNaN(createdAt.getTime())) throw new SandboxUsageError('buildEvent: createdAt is not a date');
  const id = options.id ?? `evt_${randomHex(24)}`;
  if (!id.startsWith('evt_')) throw new SandboxUsageError('buildEvent: an event id begins evt_');
  return {
    id,
    object: 'event',
    type,
    api_version: API_VERSION,
    created_at: createdAt.toISOString(),
    livemode: false,
    data: { object: object as unknown as EventPayloadMap[T] },
  };
}

/**
 * A record of `kind` built from its generated schema (sample values for every field it requires) with
 * `overrides` laid over it; valid against the schema, or a SandboxUsageError naming the field at fault.
 *
 * @example
 * const membership = buildRecord('membership', { status: 'past_due', customer_id: 8 });
 */
export function buildRecord<K extends RecordKind>(kind: K, overrides?: Overrides<RecordOf<K>>): RecordOf<K> {
  const schema = RECORD_SCHEMAS[kind] as unknown as Schema | undefined;
  if (!schema) {
    throw new SandboxUsageError(
      `buildRecord: ${JSON.stringify(kind)} is not a record kind (${Object.keys(RECORD_SCHEMAS).join(', ')})`,
    );
  }
  return build(schema, overrides, `buildRecord('${kind}')`) as unknown as RecordOf<K>;
}

/** The status an event's type implies (`booked` for range.reservation.booked), where the record knows it. */
function statusOf(schema: Schema, type: string): string | undefined {
  const verb = type.split('.').at(-1)!;
  const values = knownValuesOf(schema, 'status');
  return values?.includes(verb) ? verb : undefined;
}

function build(schema: Schema, overrides: unknown, caller: string, status?: string): Record<string, unknown> {
  const record = sampleOf(schema, '', new Set(), 0) as Record<string, unknown>;
  if (status !== undefined && typeof record.status === 'string') record.status = status;
  if (overrides !== undefined) {
    if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
      throw new SandboxUsageError(`${caller}: overrides must be an object of fields`);
    }
    for (const [path, value] of leaves(schema, overrides as Record<string, unknown>, [])) {
      const found = fieldAt(schema, path);
      if (!('schema' in found)) throw new SandboxUsageError(`${caller}: ${found.problem}`);
      const problem = schemaProblem(found.schema, value);
      if (problem !== null) {
        throw new SandboxUsageError(
          `${caller}: ${path.join('.')} ${problem.replace(/^\(the payload\): /, '')}`,
        );
      }
      setAt(record, schema, path, structuredClone(value));
    }
  }
  const problem = schemaProblem(schema, record);
  if (problem !== null) throw new SandboxUsageError(`${caller}: the result breaks its schema at ${problem}`);
  return record;
}

/** The leaf fields of an overrides object: nested objects are walked where the schema has an object. */
function leaves(schema: Schema, overrides: Record<string, unknown>, at: string[]): [string[], unknown][] {
  const result: [string[], unknown][] = [];
  for (const [key, value] of Object.entries(overrides)) {
    const path = [...at, key];
    const found = fieldAt(schema, path);
    const isObjectField = 'schema' in found && objectLike(found.schema);
    if (isObjectField && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      result.push(...leaves(schema, value as Record<string, unknown>, path));
    } else {
      result.push([path, value]);
    }
  }
  return result;
}

function objectLike(schema: Schema): boolean {
  let def = schema._zod.def;
  while ((def.type === 'optional' || def.type === 'nullable') && def.innerType) def = def.innerType._zod.def;
  return def.type === 'object';
}

/** Options of {@link signedDelivery}. */
export interface SignedDeliveryOptions {
  /** The receiver's secret (`whsec_...`), or old and new during a rotation. */
  secret: string | readonly string[];
  /** @default a new `whd_` id */
  deliveryId?: string;
  /** The Service-Attempt. @default 1 */
  attempt?: number;
  /** Unix seconds of the signature. @default now */
  timestamp?: number;
}

/** A delivery signed as the service signs one, ready to hand to a receiver under test. */
export interface SignedDelivery {
  /** The exact body, the event envelope as JSON. */
  readonly body: string;
  /** Content-Type, User-Agent and the five `Service-*` headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** A web `Request` (POST) to `url`, for a web handler: `await handler(delivery.request())`. */
  request(url?: string): Request;
  /**
   * A Node `IncomingMessage` carrying the delivery, for `handler.node(request, response)` or an Express route
   * (Node only; node:http is loaded on the first call). Typed structurally, so these types need no
   * @types/node; it is a real `http.IncomingMessage` at run time.
   */
  nodeRequest(url?: string): Promise<NodeIncomingMessage>;
}

const DEFAULT_URL = 'http://127.0.0.1/webhooks/shop';

/**
 * Signs an event (from {@link buildEvent}, or any object with `id` and `type`) the way the service signs a
 * delivery, for a receiver's unit tests: the same headers as a real delivery, no server needed.
 *
 * @example
 * const delivery = await signedDelivery(buildEvent('sale.completed'), { secret: 'whsec_test' });
 * const response = await handler(delivery.request());
 */
export async function signedDelivery(
  event: { id: string; type: string },
  options: SignedDeliveryOptions,
): Promise<SignedDelivery> {
  if (typeof event?.id !== 'string' || typeof event.type !== 'string') {
    throw new SandboxUsageError('signedDelivery: the event needs an id and a type (see buildEvent)');
  }
  const body = JSON.stringify(event);
  const headers = await deliveryHeaders({
    body,
    eventType: event.type,
    eventId: event.id,
    deliveryId: options.deliveryId ?? `whd_${randomHex(18)}`,
    attempt: options.attempt ?? 1,
    secret: options.secret,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    userAgent: 'shop-mgmt-testing',
  });
  return {
    body,
    headers,
    request: (url = DEFAULT_URL) => new Request(url, { method: 'POST', headers, body }),
    nodeRequest: async (url = DEFAULT_URL) => {
      const [{ IncomingMessage }, { Socket }] = await Promise.all([import('node:http'), import('node:net')]);
      const message = new IncomingMessage(new Socket());
      const target = new URL(url);
      message.method = 'POST';
      message.url = `${target.pathname}${target.search}`;
      message.headers = Object.fromEntries(
        Object.entries({
          ...headers,
          host: target.host,
          'content-length': String(Buffer.byteLength(body)),
        }).map(([name, value]) => [name.toLowerCase(), value]),
      );
      message.rawHeaders = Object.entries(message.headers).flatMap(([name, value]) => [name, String(value)]);
      message.push(body);
      message.push(null);
      return message;
    },
  };
}

function randomHex(length: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(Math.ceil(length / 2)));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, length);
}
