// The durable inbox: a receiver writes each verified event down (keyed by its id) before answering 200, and
// workers process it from there under a lease, with heartbeats, retries with back-off, dead letters and
// replay. Storage comes from an adapter (memory, SQLite, Postgres, Redis Streams).
import { ShopError } from '../../core/errors/shop-error.js';
import type { ShopEvent } from '../../webhooks/events.js';
import type {
  InboxEntry,
  InboxHandler,
  InboxHandlerContext,
  InboxLease,
  InboxSource,
  InboxStatus,
  InboxStore,
} from './types.js';

/** Options of {@link Inbox}. */
export interface InboxOptions {
  /**
   * Runs at most one event per object at a time, oldest first: give the key of the object an event is
   * about (`(event) => event.data.object.id`), or `true` for `data.object.id`. A failing event then holds
   * back the later ones of its object until it succeeds or goes to the dead letters. @default no ordering
   */
  orderingKey?: true | ((event: ShopEvent) => string | null | undefined);
  /** Runs of one event before it goes to the dead letters (a run whose process died counts). @default 10 */
  maxAttempts?: number;
  /** Wait before the first retry, in ms; doubled per attempt, with jitter. @default 1000 */
  retryBaseMs?: number;
  /** Longest wait between retries, in ms. @default 3_600_000 (an hour) */
  retryMaxMs?: number;
  /** The clock in ms, for tests. @default Date.now */
  now?: () => number;
}

/** Options of {@link Inbox.work}. */
export interface InboxWorkerOptions {
  /** Events processed at once by this worker. @default 4 */
  concurrency?: number;
  /**
   * Lease length in seconds: a worker that dies holds its events this long at most. The running handler
   * renews it every third of it (not needed with the SQL adapters, whose transaction locks the event).
   * @default 30
   */
  leaseSeconds?: number;
  /** Wait between polls while the inbox has nothing due, in ms. @default 500 */
  pollMs?: number;
  /** Told about every failed run and store failure (the worker goes on). @default console.error */
  onError?: (error: unknown, entry: { eventId: string; attempt: number } | null) => void;
  /** A name for this worker (the Redis adapter's consumer). @default a random one */
  name?: string;
}

/** A running worker; see {@link Inbox.work}. */
export interface InboxWorker {
  /** Stops leasing; resolves once the events in hand are finished. */
  stop(): Promise<void>;
  /** Resolves once nothing is due in the inbox and nothing is in hand (for tests and scripts). */
  idle(): Promise<void>;
}

/** What {@link Inbox.add} did: `added`, or `duplicate` when the id was already there (in any state). */
export type InboxAddOutcome = 'added' | 'duplicate';

/** What one {@link Inbox.runOnce} did. */
export interface InboxRunResult {
  readonly done: number;
  readonly failed: number;
  /** Leases lost before the done mark (another worker took the event after this one's lease ran out). */
  readonly lost: number;
}

/**
 * An event inbox over a storage adapter.
 *
 * @example
 * import { Inbox } from 'shop-mgmt/inbox';
 * import { SqliteInboxStore } from 'shop-mgmt/inbox/sqlite';
 * const inbox = new Inbox(await SqliteInboxStore.open('inbox.db'));
 * const webhooks = createWebhookHandler({ secret, inbox });
 * inbox.work(async (event, { tx }) => {
 *   await tx?.execute('insert into bookings (id) values (?)', [event.data.object.id]);
 * });
 */
export class Inbox {
  readonly store: InboxStore;
  readonly #orderingKey: ((event: ShopEvent) => string | null | undefined) | undefined;
  readonly #maxAttempts: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #now: () => number;
  #ready: Promise<void> | undefined;

  constructor(store: InboxStore, options: InboxOptions = {}) {
    if (typeof store?.add !== 'function' || typeof store.lease !== 'function') {
      throw new ShopError('Inbox needs an InboxStore (MemoryInboxStore, SqliteInboxStore, ...).');
    }
    this.store = store;
    const key = options.orderingKey;
    this.#orderingKey = key === true ? objectIdOf : key;
    this.#maxAttempts = whole('maxAttempts', options.maxAttempts ?? 10, 1);
    this.#retryBaseMs = whole('retryBaseMs', options.retryBaseMs ?? 1000, 0);
    this.#retryMaxMs = whole('retryMaxMs', options.retryMaxMs ?? 3_600_000, 0);
    this.#now = options.now ?? Date.now;
  }

  /** Creates the store's tables once; every other call awaits it. */
  ready(): Promise<void> {
    this.#ready ??= this.store.setup().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** Writes an event down, keyed by its id: an id already there is left as it is (`duplicate`). */
  async add(event: ShopEvent, source: InboxSource = 'manual'): Promise<InboxAddOutcome> {
    if (typeof event?.id !== 'string' || event.id === '') throw new ShopError('An inbox event needs an id.');
    await this.ready();
    const orderingKey = this.#orderingKey ? (this.#orderingKey(event) ?? null) : null;
    const added = await this.store.add({ event, source, orderingKey, now: this.#now() });
    return added ? 'added' : 'duplicate';
  }

  /** The event's entry, or null when the inbox never had it. */
  async get(eventId: string): Promise<InboxEntry | null> {
    await this.ready();
    return this.store.get(eventId, this.#now());
  }

  /** Entries in one state, oldest first (`deadLetters()` for `dead`). */
  async list(status: InboxStatus, limit = 100): Promise<InboxEntry[]> {
    await this.ready();
    return this.store.list(status, limit, this.#now());
  }

  /** The events that failed `maxAttempts` times, oldest first. */
  deadLetters(limit = 100): Promise<InboxEntry[]> {
    return this.list('dead', limit);
  }

  /**
   * Makes an event pending again with its attempts reset, whatever its state (a dead letter after a fix,
   * or a done event to run again). False when the inbox never had the id.
   */
  async replay(eventId: string): Promise<boolean> {
    await this.ready();
    return this.store.replay(eventId, this.#now());
  }

  /**
   * Leases up to `limit` due events and processes them (at once, up to `concurrency`), then resolves. For
   * tests and cron-style workers; {@link work} runs it in a loop.
   */
  async runOnce(
    handler: InboxHandler,
    options: InboxWorkerOptions & { limit?: number } = {},
  ): Promise<InboxRunResult> {
    await this.ready();
    const leaseMs = whole('leaseSeconds', options.leaseSeconds ?? 30, 1) * 1000;
    const limit = options.limit ?? options.concurrency ?? 4;
    const name = options.name ?? `worker-${crypto.randomUUID()}`;
    const onError = safely(options.onError ?? defaultOnError);
    const leases = await this.store.lease({
      limit,
      leaseMs,
      now: this.#now(),
      ordered: this.#orderingKey !== undefined,
      worker: name,
    });
    const counts = { done: 0, failed: 0, lost: 0 };
    await Promise.all(
      leases.map(async (lease) => {
        const outcome = await this.#process(lease, handler, leaseMs, onError);
        counts[outcome]++;
      }),
    );
    return counts;
  }

  /**
   * Processes the inbox until `stop()`: leases due events (up to `concurrency` at once), runs `handler`
   * under a renewed lease, marks each done when it succeeds (with the SQL adapters, in the transaction its
   * `tx` statements ran in), retries failures with back-off and moves an event to the dead letters after
   * `maxAttempts`. Several workers (in one process or many) may share one store.
   */
  work(handler: InboxHandler, options: InboxWorkerOptions = {}): InboxWorker {
    if (typeof handler !== 'function') throw new ShopError('Inbox.work needs a handler function.');
    const concurrency = whole('concurrency', options.concurrency ?? 4, 1);
    const leaseMs = whole('leaseSeconds', options.leaseSeconds ?? 30, 1) * 1000;
    const pollMs = whole('pollMs', options.pollMs ?? 500, 1);
    const name = options.name ?? `worker-${crypto.randomUUID()}`;
    const onError = safely(options.onError ?? defaultOnError);
    const inHand = new Set<Promise<unknown>>();
    let stopped = false;
    let wake: (() => void) | undefined;
    let idleWaiters: (() => void)[] = [];
    let sleeping: ReturnType<typeof setTimeout> | undefined;

    const loop = async (): Promise<void> => {
      await this.ready().catch((error: unknown) => onError(error, null));
      while (!stopped) {
        const free = concurrency - inHand.size;
        let leases: InboxLease[] = [];
        if (free > 0) {
          try {
            leases = await this.store.lease({
              limit: free,
              leaseMs,
              now: this.#now(),
              ordered: this.#orderingKey !== undefined,
              worker: name,
            });
          } catch (error) {
            onError(error, null);
          }
        }
        for (const lease of leases) {
          const running = this.#process(lease, handler, leaseMs, onError).finally(() => {
            inHand.delete(running);
            wake?.();
          });
          inHand.add(running);
        }
        if (leases.length === 0 && inHand.size === 0) {
          for (const resolve of idleWaiters) resolve();
          idleWaiters = [];
        }
        if (stopped) break;
        // A full batch: lease again at once. Otherwise wait for a slot to free or the poll interval.
        if (leases.length > 0 && leases.length === free) continue;
        await new Promise<void>((resolve) => {
          wake = resolve;
          // Not unref'd: a worker process with nothing else to do keeps polling until stop().
          sleeping = setTimeout(resolve, leases.length === 0 ? pollMs : 0);
        });
        clearTimeout(sleeping);
        wake = undefined;
      }
    };
    const running = loop();
    return {
      stop: async () => {
        stopped = true;
        wake?.();
        await running;
        await Promise.all(inHand);
        for (const resolve of idleWaiters) resolve();
        idleWaiters = [];
      },
      idle: () =>
        new Promise<void>((resolve) => {
          idleWaiters.push(resolve);
          wake?.();
        }),
    };
  }

  async #process(
    lease: InboxLease,
    handler: InboxHandler,
    leaseMs: number,
    onError: NonNullable<InboxWorkerOptions['onError']>,
  ): Promise<'done' | 'failed' | 'lost'> {
    const about = { eventId: lease.eventId, attempt: lease.attempt };
    if (lease.attempt > this.#maxAttempts) {
      // Every run died with its process (or lost its lease): no handler left to throw.
      await this.#fail(
        lease,
        new ShopError(`No run finished in ${this.#maxAttempts} attempts.`),
        true,
        onError,
      );
      return 'failed';
    }
    const controller = new AbortController();
    const heartbeat = this.store.locksWhileWorking
      ? undefined
      : setInterval(
          () => {
            this.store.renew(lease, leaseMs, this.#now()).then(
              (held) => {
                if (!held) controller.abort(new ShopError(`The lease of ${lease.eventId} was lost.`));
              },
              (error: unknown) => onError(error, about),
            );
          },
          Math.max(1, Math.floor(leaseMs / 3)),
        );
    try {
      const outcome = await this.store.complete(
        lease,
        async (tx) => {
          const context: InboxHandlerContext = {
            source: lease.source,
            attempt: lease.attempt,
            signal: controller.signal,
            tx,
          };
          await handler(lease.event, context);
        },
        this.#now(),
      );
      return outcome;
    } catch (error) {
      onError(error, about);
      await this.#fail(lease, error, lease.attempt >= this.#maxAttempts, onError);
      return 'failed';
    } finally {
      clearInterval(heartbeat);
      controller.abort();
    }
  }

  async #fail(
    lease: InboxLease,
    error: unknown,
    dead: boolean,
    onError: NonNullable<InboxWorkerOptions['onError']>,
  ): Promise<void> {
    const now = this.#now();
    const backoff = Math.min(this.#retryMaxMs, this.#retryBaseMs * 2 ** Math.min(30, lease.attempt - 1));
    // Full jitter on the upper half: retries of many events failing together spread out.
    const retryAt = now + Math.round(backoff / 2 + (Math.random() * backoff) / 2);
    try {
      await this.store.fail(lease, { error: messageOf(error), retryAt, dead, now });
    } catch (failError) {
      // Harmless: the lease runs out and the event is leased again.
      onError(failError, { eventId: lease.eventId, attempt: lease.attempt });
    }
  }
}

function objectIdOf(event: ShopEvent): string | null {
  const id = (event.data?.object as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

/** An onError that cannot throw: a failing logger must not stop the worker or leave a rejection behind. */
function safely(
  onError: NonNullable<InboxWorkerOptions['onError']>,
): NonNullable<InboxWorkerOptions['onError']> {
  return (error, entry) => {
    try {
      onError(error, entry);
    } catch {
      // The worker goes on.
    }
  };
}

function defaultOnError(error: unknown, entry: { eventId: string; attempt: number } | null): void {
  console.error(
    `shop-mgmt: inbox ${entry ? `event ${entry.eventId} attempt ${entry.attempt}` : 'worker'}`,
    error,
  );
}

function whole(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new ShopError(`${name} must be a whole number, ${min} or more, got ${value}.`);
  }
  return value;
}
