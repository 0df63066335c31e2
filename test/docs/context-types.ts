// The types of the names a doc block may use without declaring them (test/docs/context.ts has their values).
// Type-only, and importing only the package's public entries (src/index.ts, src/webhooks/index.ts, ...): the
// docs runner checks blocks against the BUILT package, so it reads this file with each '../../src/<entry>'
// rewritten to its 'shop-mgmt/...' name (and fails on an import that is no public entry). A block then sees
// the published .d.ts, never src/.
//
// The partner's own things are typed as the libraries a partner would use type them, never loosened to fit a
// doc: pino's log functions, prom-client's label values (`string | number`, a metric's value a `number`),
// ioredis's client, Express's app (as @types/express declares it: its Request IS a Node IncomingMessage).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { InventoryMirror, MemoryCheckpointStore, ShopClient } from '../../src/index.js';
import type { RangeReservation } from '../../src/schemas.js';
import type { Sandbox } from '../../src/testing/index.js';
import type { ShopEvent } from '../../src/webhooks/index.js';

/** Express's `Request` (@types/express): Node's IncomingMessage plus the parsed body (`any` there). */
interface ExpressRequest extends IncomingMessage {
  // biome-ignore lint/suspicious/noExplicitAny: @types/express types the body `any`
  body: any;
}
/** Express's `Response` (@types/express): Node's ServerResponse plus `status` and `send`. */
interface ExpressResponse extends ServerResponse {
  status(code: number): this;
  send(body?: unknown): this;
}
/** Express's `app.post(path, ...handlers)`. */
interface ExpressApp {
  post(
    path: string,
    ...handlers: ((req: ExpressRequest, res: ExpressResponse, next: (error?: unknown) => void) => unknown)[]
  ): this;
}

/** pino's `LogFn`: an object of fields then a message, or a message alone. */
interface PinoLogFn {
  (fields: object, message?: string, ...args: unknown[]): void;
  (message: string, ...args: unknown[]): void;
}
interface PinoLogger {
  debug: PinoLogFn;
  info: PinoLogFn;
  warn: PinoLogFn;
  error: PinoLogFn;
}

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
  /** An event of the sandbox's feed (an inventory.changed). */
  event: ShopEvent;
  /** A cursor saved from an earlier walk (`page.nextCursor`: none yet, so the walk starts at the beginning). */
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
  log: PinoLogger;
  /** A metrics facade over prom-client: a histogram's value is a number, its labels `string | number`. */
  metrics: { histogram(name: string, value: number, labels: Record<string, string | number>): void };
  MyAppError: new (message: string, options?: { cause?: unknown }) => Error;
  pino: () => PinoLogger;
  setStock: (productId: number, quantity: number) => void;
  recordRounds: (rounds: number) => void;
  secret: string;
  /** A receiver's URL (nothing listens: deliveries to it fail and are retried). */
  receiverUrl: string;
  onEvent: (event: ShopEvent) => void;
  /** A sale of the sandbox (an order of the register) that can be returned. */
  orderId: number;
  /** A product of the sandbox that can be deleted. */
  productId: number;
  /** A webhook endpoint of the sandbox. */
  endpointId: string;
  /** A Node response for a handler's `.node(req, res)` (a real one, of a request to nothing). */
  response: ServerResponse;
  // typecheck-only blocks: the partner's framework and infrastructure.
  app: ExpressApp;
  apiKey: string;
  shopId: string;
  redis: Redis;
  secrets: { lookup(shopId: string): Promise<string | undefined> };
  apply: (shopId: string, event: ShopEvent) => Promise<void>;
  WidgetSchema: z.ZodType<{ id: number; name: string }>;
}
