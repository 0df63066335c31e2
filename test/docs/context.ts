// The names a doc block may use without declaring them (test/docs/blocks.test.ts): `shop` and `sandbox` of
// the block's own fresh sandbox, ids that exist in it, and the partner's own things a fragment leans on
// (`db`, `log`, `metrics`, ...). Each has a type (what the block is type-checked against) and, when a block
// that runs may use it, a value made for that block. A name with no value here is for `typecheck-only`
// blocks alone. Add a name here when a new doc fragment needs one (CONTRIBUTING.md, "Docs are tested").
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { ShopApiError } from '../../src/core/errors/index.js';
import type { RangeReservation } from '../../src/generated/schemas.js';
import type { ShopClient } from '../../src/index.js';
import { MemoryCheckpointStore } from '../../src/sync/checkpoint.js';
import { InventoryMirror } from '../../src/sync/inventory-mirror.js';
import type { Sandbox } from '../../src/testing/index.js';
import type { ShopEvent } from '../../src/webhooks/index.js';
import type { RedisDedupeStore } from '../../src/webhooks/redis.js';

/** An Express-like request with the raw body (`express.raw()`). */
interface ExpressLikeRequest {
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
}
/** An Express-like response. */
interface ExpressLikeResponse {
  status(code: number): ExpressLikeResponse;
  send(body?: unknown): ExpressLikeResponse;
}
/** An Express-like app: a route takes the SDK's `webhooks.node` or a handler of its own. */
interface ExpressLikeApp {
  post(path: string, handler: (req: ExpressLikeRequest, res: ExpressLikeResponse) => unknown): void;
  post(path: string, handler: (req: IncomingMessage, res: ServerResponse) => unknown): void;
}

type Logger = { info: (...args: unknown[]) => void; warn: (...args: unknown[]) => void };
type ReservationParams = Parameters<ShopClient['range']['reservations']['create']>[0];

/** Every name and its type. */
export interface DocContext {
  /** A client of the block's sandbox (also what `new ShopClient()` reaches: SHOP_API_KEY and SHOP_API_BASE_URL are set). */
  shop: ShopClient;
  /** The block's own fresh sandbox (seed 1, clock at the present, frozen), served on 127.0.0.1. */
  sandbox: Sandbox;
  /** A key of the sandbox. */
  key: string;
  /** A second key of the sandbox (a tenant's). */
  northKey: string;
  /** A reservation that is checked in (a visit under way). */
  reservationId: number;
  /** A rental gun that is available. */
  rentalId: number;
  /** A customer that exists. */
  customerId: number;
  /** The body of a booking one hour long, a week from the sandbox's present. */
  booking: ReservationParams;
  /** The same, as `params`. */
  params: ReservationParams;
  /** An hour a week from the sandbox's present: `{ starts_at, ends_at }`. */
  slot: { starts_at: string; ends_at: string };
  /** An order of the partner's shop front. */
  order: { id: string };
  idempotencyKey: string;
  job: { params: ReservationParams; idempotencyKey: string };
  retryQueue: { push(job: { params: ReservationParams; idempotencyKey: string | null }): Promise<void> };
  /** A VALIDATION_ERROR the sandbox answered. */
  err: unknown;
  form: { setError(field: string, message: string): void };
  /** An event of the sandbox's feed (a range.rental.checked_in). */
  event: ShopEvent;
  /** A cursor saved from an earlier walk (none yet: the walk starts at the beginning). */
  savedCursor: string | undefined;
  db: {
    upsert(record: RangeReservation): Promise<void>;
    transaction(work: () => void): Promise<void>;
  };
  store: (event: ShopEvent) => void;
  saveCheckpoint: (cursor: string | null) => Promise<void>;
  mirror: InventoryMirror;
  members: { update(membership: unknown): Promise<void> };
  bookings: { confirm(id: number): Promise<void>; add(id: number): void };
  checkpoints: MemoryCheckpointStore;
  log: Logger;
  metrics: { histogram(name: string, value: number | null, labels: Record<string, unknown>): void };
  MyAppError: new (message: string, options?: { cause?: unknown }) => Error;
  pino: () => Logger & { debug: (...args: unknown[]) => void; error: (...args: unknown[]) => void };
  setStock: (productId: number, quantity: number) => void;
  recordRounds: (rounds: number | null | undefined) => void;
  secret: string;
  /** A receiver's URL (nothing listens: deliveries to it fail and are retried). */
  receiverUrl: string;
  onEvent: (event: ShopEvent) => void;
  // typecheck-only blocks: the partner's framework and infrastructure, and ids of records a block makes.
  response: ServerResponse;
  orderId: number;
  productId: number;
  endpointId: string;
  app: ExpressLikeApp;
  apiKey: string;
  shopId: string;
  redis: ConstructorParameters<typeof RedisDedupeStore>[0];
  secrets: { lookup(shopId: string): Promise<string | undefined> };
  apply: (shopId: string, event: ShopEvent) => Promise<void>;
  WidgetSchema: z.ZodType<{ id: number; name: string }>;
}

/** What a value is made from: the block's sandbox and a client of it. */
export interface DocSetting {
  readonly sandbox: Sandbox;
  readonly shop: ShopClient;
}

type Factories = {
  [K in keyof DocContext]?: (setting: DocSetting) => DocContext[K] | Promise<DocContext[K]>;
};

const DAY_MS = 86_400_000;
const noop = () => undefined;
const asyncNoop = async () => undefined;
const quietLog = { info: noop, warn: noop };

/** `days` from the sandbox's present (a week by default), 15:00 to 16:00 UTC. */
function hourAWeekOut(sandbox: Sandbox, days = 7): { starts_at: string; ends_at: string } {
  const day = new Date(sandbox.clock.nowMs() + days * DAY_MS).toISOString().slice(0, 10);
  return { starts_at: `${day}T15:00:00Z`, ends_at: `${day}T16:00:00Z` };
}

async function bookingBody({ sandbox, shop }: DocSetting, days = 7): Promise<ReservationParams> {
  const slot = hourAWeekOut(sandbox, days);
  const [free] = await shop.range.availability.list({ ...slot, party_size: 2 });
  if (!free) throw new Error('doc context: no lane is free a week out');
  return { ...slot, resource_ids: [free.resource.id], party_size: 2, customer_id: 1 };
}

/** The values, made only for the names a block uses. */
export const FACTORIES: Factories = {
  key: ({ sandbox }) => sandbox.createKey(),
  northKey: ({ sandbox }) => sandbox.createKey({ locations: [1] }),
  async reservationId(setting) {
    const booked = await setting.shop.range.reservations.create(await bookingBody(setting, 9));
    // A visit under way: the booking's hour reached, then checked in.
    setting.sandbox.clock.set(Date.parse(booked.starts_at));
    await setting.shop.range.reservations.checkIn(booked.id);
    return booked.id;
  },
  async rentalId({ shop }) {
    const guns = await shop.range.rentals.list({ limit: 100 }).toArray();
    const gun = guns.find((candidate) => candidate.status === 'available');
    if (!gun) throw new Error('doc context: no rental gun is available');
    return gun.id;
  },
  customerId: (): number => 1, // the seed's first customer
  booking: (setting) => bookingBody(setting),
  params: (setting) => bookingBody(setting),
  slot: ({ sandbox }) => hourAWeekOut(sandbox),
  order: () => ({ id: `web-${globalThis.crypto.randomUUID().slice(0, 8)}` }),
  idempotencyKey: () => `booking-${globalThis.crypto.randomUUID()}`,
  job: async (setting) => ({ params: await bookingBody(setting, 8), idempotencyKey: 'booking-job-1' }),
  retryQueue: () => ({ push: asyncNoop }),
  async err({ shop }) {
    const error = await shop.range.reservations
      .list({ limit: 0 } as never)
      .then(() => null)
      .catch((thrown: unknown) => thrown);
    if (!(error instanceof ShopApiError) || error.code !== 'VALIDATION_ERROR') {
      throw new Error('doc context: the sandbox did not answer VALIDATION_ERROR');
    }
    return error;
  },
  form: () => ({ setError: noop }),
  async event({ sandbox, shop }) {
    sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/docs', types: ['*'] });
    sandbox.register.sell({ customerId: 1, locationId: 1, lines: [{ sku: 'AMMO-FED-9MM-50', qty: 1 }] });
    const [latest] = await shop.events.list({ type: 'inventory.changed' }).toArray();
    if (!latest) throw new Error('doc context: no inventory.changed event');
    return latest as ShopEvent;
  },
  savedCursor: () => undefined,
  db: () => ({ upsert: asyncNoop, transaction: async (work: () => void) => work() }),
  store: () => noop,
  saveCheckpoint: () => asyncNoop,
  mirror: () => new InventoryMirror(),
  members: () => ({ update: asyncNoop }),
  bookings: () => ({ confirm: asyncNoop, add: noop }),
  checkpoints: () => new MemoryCheckpointStore(),
  log: () => quietLog,
  metrics: () => ({ histogram: noop }),
  MyAppError: () => class MyAppError extends Error {},
  pino: () => () => ({ ...quietLog, debug: noop, error: noop }),
  setStock: () => noop,
  recordRounds: () => noop,
  secret: () => 'whsec_docs_secret',
  receiverUrl: () => 'http://127.0.0.1:9/webhooks',
  onEvent: () => noop,
};

/** Every name of the context (the keys of DocContext), for the block's declarations. */
export const CONTEXT_NAMES: readonly (keyof DocContext)[] = [
  'shop',
  'sandbox',
  ...(Object.keys(FACTORIES) as (keyof DocContext)[]),
  'app',
  'apiKey',
  'shopId',
  'redis',
  'secrets',
  'apply',
  'WidgetSchema',
  'response',
  'orderId',
  'productId',
  'endpointId',
];
