// The durable inbox: events written down by id before the 200, then processed by workers under a lease.
import { ShopError } from '../../core/errors/shop-error.js';
import type { ShopEvent } from '../../webhooks/events.js';
import { publishInbox } from './diagnostics.js';
import { defaultSecrets, keyText, objectKeyOf, storedMessageOf } from './event-keys.js';
import type {
  InboxAddOutcome,
  InboxKeyedEvent,
  InboxOptions,
  InboxRunResult,
  InboxWorker,
  InboxWorkerOptions,
} from './options.js';
import type {
  InboxEntry,
  InboxHandler,
  InboxHandlerContext,
  InboxLease,
  InboxSource,
  InboxStatus,
  InboxStore,
  InboxTransaction,
  LeaseRequest,
} from './types.js';
import { closable, defaultOnError, monotonicWallClock, safely, whole, within } from './worker-support.js';

export type {
  InboxAddOutcome,
  InboxKeyedEvent,
  InboxOptions,
  InboxRetention,
  InboxRunResult,
  InboxWorker,
  InboxWorkerOptions,
} from './options.js';

/**
 * An event inbox over a storage adapter.
 *
 * @example
 * import { Inbox } from 'shop-mgmt/inbox';
 * import { SqliteInboxStore } from 'shop-mgmt/inbox/sqlite';
 * const inbox = new Inbox(await SqliteInboxStore.open('inbox.db'));
 * const webhooks = createWebhookHandler({ secret, inbox });
 * inbox.work(async (event, { tx }) => {
 *   await tx.execute('insert into bookings (id) values (?)', [event.data.object.id]);
 * });
 */
export class Inbox<Tx extends InboxTransaction | undefined = InboxTransaction | undefined> {
  readonly store: InboxStore<Tx>;
  readonly #orderingKey: ((event: ShopEvent) => string | null) | undefined;
  readonly #maxAttempts: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #doneMs: number;
  readonly #deadMs: number | null;
  readonly #secrets: readonly string[];
  readonly #now: () => number;
  #ready: Promise<void> | undefined;

  constructor(store: InboxStore<Tx>, options: InboxOptions = {}) {
    if (typeof store?.add !== 'function' || typeof store.lease !== 'function') {
      throw new ShopError('Inbox needs an InboxStore (MemoryInboxStore, SqliteInboxStore, ...).');
    }
    this.store = store;
    const key = options.orderingKey;
    this.#orderingKey =
      key === true
        ? objectKeyOf
        : typeof key === 'function'
          ? (event) => keyText(key(event as InboxKeyedEvent))
          : undefined;
    this.#maxAttempts = whole('maxAttempts', options.maxAttempts ?? 10, 1);
    this.#retryBaseMs = whole('retryBaseMs', options.retryBaseMs ?? 1000, 0);
    this.#retryMaxMs = whole('retryMaxMs', options.retryMaxMs ?? 3_600_000, 0);
    this.#doneMs = whole('retention.doneMs', options.retention?.doneMs ?? 31 * DAY_MS, 0);
    const deadMs = options.retention?.deadMs;
    this.#deadMs = deadMs === undefined ? null : whole('retention.deadMs', deadMs, 0);
    this.#secrets = [...(options.secrets ?? defaultSecrets())];
    this.#now = options.now ?? monotonicWallClock();
  }

  /** Creates the store's tables once; every other call awaits it. */
  ready(): Promise<void> {
    this.#ready ??= this.store.setup().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** Writes an event down; an id already there is left as it is. */
  async add(event: ShopEvent, source: InboxSource = 'manual'): Promise<InboxAddOutcome> {
    if (typeof event?.id !== 'string' || event.id === '') throw new ShopError('An inbox event needs an id.');
    await this.ready();
    const orderingKey = this.#orderingKey ? this.#orderingKey(event) : null;
    const added = await this.store.add({ event, source, orderingKey, now: this.#now() });
    publishInbox(() => ({ type: added ? 'added' : 'duplicate', inbox: this, source }));
    return added ? 'added' : 'duplicate';
  }

  /** The event's entry. */
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

  /** Makes an event pending again with its attempts reset; false for an unknown id. */
  async replay(eventId: string): Promise<boolean> {
    await this.ready();
    const replayed = await this.store.replay(eventId, this.#now());
    if (replayed) publishInbox(() => ({ type: 'replayed', inbox: this }));
    return replayed;
  }

  /** Deletes up to `limit` entries past `retention` and gives the count; workers call it themselves. */
  async prune(limit = 500): Promise<number> {
    await this.ready();
    if (!this.store.prune) return 0;
    const now = this.#now();
    return this.store.prune({
      doneBefore: now - this.#doneMs,
      deadBefore: this.#deadMs === null ? null : now - this.#deadMs,
      limit: whole('limit', limit, 1),
      now,
    });
  }

  /** Leases and processes up to `limit` due events once, for tests and cron-style workers. */
  async runOnce(
    handler: InboxHandler<Tx>,
    options: InboxWorkerOptions & { limit?: number } = {},
  ): Promise<InboxRunResult> {
    await this.ready();
    const settings = this.#settings(options);
    const limit = options.limit ?? options.concurrency ?? 4;
    const leases = await this.store.lease(this.#leaseRequest(limit, settings, true));
    const counts = { done: 0, failed: 0, lost: 0 };
    await Promise.all(
      leases.map(async (lease) => {
        const outcome = await this.#process(lease, handler, settings).settled;
        counts[outcome]++;
      }),
    );
    return counts;
  }

  /**
   * Processes the inbox until `stop()`: runs `handler` under a lease and a deadline, marks successes done,
   * retries failures with back-off, dead-letters after `maxAttempts`. Workers may share one store.
   */
  work(handler: InboxHandler<Tx>, options: InboxWorkerOptions = {}): InboxWorker {
    if (typeof handler !== 'function') throw new ShopError('Inbox.work needs a handler function.');
    const concurrency = whole('concurrency', options.concurrency ?? 4, 1);
    const settings = this.#settings(options);
    const pollMs = whole('pollMs', options.pollMs ?? 500, 1);
    const stopTimeoutMs = whole(
      'stopTimeoutMs',
      options.stopTimeoutMs ?? settings.handlerTimeoutMs + 5000,
      0,
    );
    const inHand = new Map<Promise<unknown>, Run>();
    let suspectInHand = false;
    let stopped = false;
    let wake: (() => void) | undefined;
    let idleWaiters: (() => void)[] = [];
    let sleeping: ReturnType<typeof setTimeout> | undefined;
    let prunedAt = Number.NEGATIVE_INFINITY;

    const loop = async (): Promise<void> => {
      await this.ready().catch((error: unknown) => settings.onError(error, null));
      while (!stopped) {
        // A suspect runs with nothing beside it: if it kills the process, no other event is counted.
        const free = suspectInHand ? 0 : concurrency - inHand.size;
        let leases: InboxLease[] = [];
        if (free > 0) {
          try {
            leases = await this.store.lease(this.#leaseRequest(free, settings, inHand.size === 0));
          } catch (error) {
            settings.onError(error, null);
          }
        }
        for (const lease of leases) {
          if (lease.suspect) suspectInHand = true;
          const run = this.#process(lease, handler, settings);
          const settled = run.settled.finally(() => {
            inHand.delete(settled);
            if (lease.suspect) suspectInHand = false;
            wake?.();
          });
          inHand.set(settled, run);
        }
        if (leases.length === 0 && inHand.size === 0) {
          for (const resolve of idleWaiters) resolve();
          idleWaiters = [];
          if (performance.now() - prunedAt >= PRUNE_EVERY_MS) {
            prunedAt = performance.now();
            await this.prune().catch((error: unknown) => settings.onError(error, null));
          }
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
    const finished = async () => {
      await running;
      await Promise.all(inHand.keys());
    };
    return {
      stop: async () => {
        stopped = true;
        wake?.();
        if (!(await within(finished(), stopTimeoutMs))) {
          const error = new ShopError(
            `The worker stopped with the handler still running after ${stopTimeoutMs} ms.`,
          );
          for (const run of inHand.values()) run.cut(error);
          // The cut runs roll back and release their leases; a store that hangs is not waited for.
          await within(Promise.all(inHand.keys()), 1000);
        }
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

  #settings(options: InboxWorkerOptions): WorkerSettings {
    const leaseMs = whole('leaseSeconds', options.leaseSeconds ?? 30, 1) * 1000;
    return {
      leaseMs,
      handlerTimeoutMs: whole('handlerTimeoutMs', options.handlerTimeoutMs ?? Math.floor(leaseMs / 3), 1),
      name: options.name ?? `worker-${crypto.randomUUID()}`,
      onError: safely(options.onError ?? defaultOnError),
    };
  }

  #leaseRequest(limit: number, settings: WorkerSettings, alone: boolean): LeaseRequest {
    return {
      limit,
      leaseMs: settings.leaseMs,
      now: this.#now(),
      ordered: this.#orderingKey !== undefined,
      worker: settings.name,
      alone,
      retryHorizonMs: this.#retryMaxMs,
    };
  }

  /** Runs one leased event; `cut` ends its handler now, as its deadline would. */
  #process(lease: InboxLease, handler: InboxHandler<Tx>, settings: WorkerSettings): Run {
    const started = performance.now();
    let cutWith: ((error: ShopError) => void) | undefined;
    let cutError: ShopError | undefined;
    const cut = (error: ShopError) => {
      cutError ??= error;
      cutWith?.(error);
    };
    const settled = this.#run(lease, handler, settings, (onCut) => {
      cutWith = onCut;
      if (cutError) onCut(cutError);
    }).then((outcome) => {
      // shop-mgmt/otel's inbox figures: the run's outcome and time (a dead letter told apart from a retry).
      publishInbox(() => ({
        type: 'settled',
        inbox: this,
        outcome: outcome === 'failed' ? (lease.attempt >= this.#maxAttempts ? 'dead' : 'retry') : outcome,
        attempt: lease.attempt,
        durationMs: performance.now() - started,
      }));
      return outcome;
    });
    return { settled, cut };
  }

  async #run(
    lease: InboxLease,
    handler: InboxHandler<Tx>,
    { leaseMs, handlerTimeoutMs, onError }: WorkerSettings,
    onCut: (cut: (error: ShopError) => void) => void,
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
    let deadline: ReturnType<typeof setTimeout> | undefined;
    try {
      const outcome = await this.store.complete(
        lease,
        async (tx) => {
          let over: ShopError | undefined;
          const context: InboxHandlerContext<Tx> = {
            source: lease.source,
            attempt: lease.attempt,
            signal: controller.signal,
            tx: (tx && closable(tx, () => over)) as Tx,
          };
          // The deadline runs from the handler's start (not while a SQLite transaction waits its turn).
          const cutOff = new Promise<never>((_, reject) => {
            const stop = (error: ShopError) => {
              // Closed first: a statement the handler sends on abort must not run before the rollback.
              over ??= error;
              controller.abort(error);
              reject(error);
            };
            deadline = setTimeout(
              () => stop(new ShopError(`The handler timed out after ${handlerTimeoutMs} ms.`)),
              handlerTimeoutMs,
            );
            onCut(stop);
          });
          const running = Promise.resolve().then(() => handler(lease.event, context));
          // A handler that settles after its cut-off settles unheard.
          running.catch(() => undefined);
          await Promise.race([running, cutOff]);
        },
        this.#now(),
      );
      return outcome;
    } catch (error) {
      onError(error, about);
      await this.#fail(lease, error, lease.attempt >= this.#maxAttempts, onError);
      return 'failed';
    } finally {
      clearTimeout(deadline);
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
      await this.store.fail(lease, { error: storedMessageOf(error, this.#secrets), retryAt, dead, now });
    } catch (failError) {
      // Harmless: the lease runs out and the event is leased again.
      onError(failError, { eventId: lease.eventId, attempt: lease.attempt });
    }
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often an idle worker prunes a batch past retention. */
const PRUNE_EVERY_MS = 60_000;

interface WorkerSettings {
  readonly leaseMs: number;
  readonly handlerTimeoutMs: number;
  readonly name: string;
  readonly onError: NonNullable<InboxWorkerOptions['onError']>;
}

/** One event in a worker's hands. */
interface Run {
  readonly settled: Promise<'done' | 'failed' | 'lost'>;
  readonly cut: (error: ShopError) => void;
}
