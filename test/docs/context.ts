// The names a doc block may use without declaring them (test/docs/blocks.test.ts): `shop` and `sandbox` of
// the block's own fresh sandbox, ids that exist in it, and the partner's own things a fragment leans on
// (`db`, `log`, `metrics`, ...). Each has a type (what the block is type-checked against) and, when a block
// that runs may use it, a value made for that block. A name with no value here is for `typecheck-only`
// blocks alone. Add a name here when a new doc fragment needs one (CONTRIBUTING.md, "Docs are tested").
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ShopApiError } from '../../src/core/errors/index.js';
import type { ShopClient } from '../../src/index.js';
import { MemoryCheckpointStore } from '../../src/sync/checkpoint.js';
import { InventoryMirror } from '../../src/sync/inventory-mirror.js';
import type { Sandbox } from '../../src/testing/index.js';
import type { ShopEvent } from '../../src/webhooks/index.js';
import type { DocContext } from './context-types.js';

export type { DocContext } from './context-types.js';

type ReservationParams = DocContext['booking'];

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
const quietLog = { debug: noop, info: noop, warn: noop, error: noop };

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
  pino: () => () => quietLog,
  setStock: () => noop,
  recordRounds: () => noop,
  secret: () => 'whsec_docs_secret',
  receiverUrl: () => 'http://127.0.0.1:9/webhooks',
  onEvent: () => noop,
  orderId: ({ sandbox }) =>
    sandbox.register.sell({ customerId: 1, locationId: 1, lines: [{ sku: 'AMMO-FED-9MM-50', qty: 2 }] }).id,
  productId: ({ sandbox }) =>
    sandbox.owner.addProduct({ sku: 'DOCS-1', name: 'A product to delete', priceCents: 100 }).id,
  endpointId: ({ sandbox }) =>
    sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/docs', types: ['*'] }).id,
  response: () => new ServerResponse(new IncomingMessage(new Socket())),
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
];
