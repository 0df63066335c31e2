import { ShopError } from '../core/errors/shop-error.js';
import { DEFAULT_DEDUPE_TTL_SECONDS, type DedupeStore } from '../webhooks/dedupe.js';
import type { EventType, ShopEvent } from '../webhooks/events.js';
import type { EventContext, EventHandler } from '../webhooks/router.js';
import { type Checkpoint, type CheckpointStore, MemoryCheckpointStore } from './checkpoint.js';
import { type Poller, type PollOptions, poll } from './poll.js';
import { compareTimestamps, isTimestamp } from './timestamps.js';

/** The least of an event the catch-up reads; `ShopClient`'s events satisfy it. */
export interface FeedEvent {
  readonly id: string;
  readonly type: string;
  readonly created_at: string;
}

/**
 * What the catch-up needs from a client: `events.list` walking the feed with `for await`. A `ShopClient`
 * fits; so does any object with the same method (a test double, a client wrapper).
 */
export interface EventFeedSource {
  readonly events: {
    list(params: { updated_since?: string; type?: string; limit?: number }): AsyncIterable<FeedEvent>;
  };
}

/** Options of {@link EventCatchUp}. */
export interface EventCatchUpOptions {
  /** The client to read `GET /v1/events` with (a `ShopClient`). */
  client: EventFeedSource;
  /** Called once per new event, oldest first; give the webhook handler the same function. */
  onEvent: EventHandler;
  /**
   * The dedupe store of the webhook handler: an event that came by webhook is then not handled again when
   * the feed brings it back, and the other way round. Without one, the catch-up still never hands on an
   * event twice itself, but knows nothing of webhooks.
   */
  dedupe?: DedupeStore;
  /** How long a claimed id is remembered, in seconds. @default 259200 (3 days) */
  dedupeTtlSeconds?: number;
  /** Keeps the checkpoint between runs. @default a MemoryCheckpointStore */
  checkpoints?: CheckpointStore;
  /** Where the first run starts when there is no checkpoint. @default the start of the feed (30 days back) */
  since?: string | Date;
  /** Only events of this type (the feed takes one type). */
  type?: EventType;
  /** Page size, 1 to 200. @default the API's (50) */
  pageSize?: number;
  /** Saves the checkpoint after this many handled events, as well as at the end of a run. @default 50 */
  checkpointEvery?: number;
}

/** What one {@link EventCatchUp.run} did. */
export interface CatchUpResult {
  /** Events handed to `onEvent`. */
  readonly processed: number;
  /** Events dropped as already seen (before the checkpoint, or claimed in the dedupe store). */
  readonly skipped: number;
  /** The checkpoint after the run; null when the feed was empty and none existed. */
  readonly checkpoint: Checkpoint | null;
}

/** A running catch-up poll; see {@link EventCatchUp.start}. */
export type CatchUpPoller = Poller;

const FEED_CONTEXT: EventContext = { source: 'feed', delivery: null };

/**
 * Reads the event feed (`GET /v1/events`) from a checkpoint and hands each event it has not seen to
 * `onEvent`, oldest first. Together with a webhook handler that shares its `onEvent` and dedupe store, each
 * event id is handled once whichever way it arrives.
 *
 * A run re-reads from the checkpoint's `created_at` inclusive (events of the same instant may have been
 * recorded after the checkpoint was saved) and drops the events up to the checkpoint's event. When
 * `onEvent` throws, the run saves the checkpoint of the last handled event and rejects; the next run starts
 * with the failed event.
 *
 * @example
 * const catchUp = new EventCatchUp({ client: shop, onEvent: router.dispatch, dedupe, checkpoints });
 * const poller = catchUp.start({ intervalMs: 60_000 });
 */
export class EventCatchUp {
  readonly #options: EventCatchUpOptions;
  readonly #checkpoints: CheckpointStore;
  #running: Promise<CatchUpResult> | null = null;

  constructor(options: EventCatchUpOptions) {
    if (typeof options?.client?.events?.list !== 'function') {
      throw new ShopError('EventCatchUp needs a client with events.list (a ShopClient).');
    }
    if (typeof options.onEvent !== 'function') throw new ShopError('EventCatchUp needs an onEvent function.');
    this.#options = options;
    this.#checkpoints = options.checkpoints ?? new MemoryCheckpointStore();
  }

  /**
   * Reads the feed from the checkpoint to its end once. A call while a run is in progress joins that run,
   * so runs never overlap.
   */
  run(): Promise<CatchUpResult> {
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /**
   * Runs now, then again `intervalMs` (default 60 000) after each run ends, until `stop()`. A failed run goes
   * to `onError` (default `console.error`) and the next run retries it.
   */
  start(options: PollOptions = {}): CatchUpPoller {
    return poll(
      () => this.run(),
      options.intervalMs ?? 60_000,
      options.onError ?? ((error: unknown) => console.error('shop-sdk: event catch-up failed', error)),
    );
  }

  async #run(): Promise<CatchUpResult> {
    const { client, type, pageSize, dedupe } = this.#options;
    const ttl = this.#options.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS;
    const every = this.#options.checkpointEvery ?? 50;
    const start = await this.#checkpoints.load();
    let checkpoint = start;
    let unsaved = 0;
    let processed = 0;
    let skipped = 0;

    const handle = async (event: FeedEvent): Promise<void> => {
      if (!dedupe || (await dedupe.claim(event.id, ttl))) {
        try {
          await this.#options.onEvent(event as ShopEvent, FEED_CONTEXT);
        } catch (error) {
          await dedupe?.release(event.id);
          throw error;
        }
        processed++;
      } else {
        skipped++;
      }
      checkpoint = { lastEventId: event.id, createdAt: event.created_at };
      if (++unsaved >= every) {
        await this.#checkpoints.save(checkpoint);
        unsaved = 0;
      }
    };

    const since = start?.createdAt ?? toIso(this.#options.since);
    const params = {
      ...(since !== undefined ? { updated_since: since } : {}),
      ...(type !== undefined ? { type } : {}),
      ...(pageSize !== undefined ? { limit: pageSize } : {}),
    };
    // Events of the checkpoint's instant, held until the checkpoint's own event shows whether they came
    // before it (already handled) or after it (new). The feed is in ascending id order.
    let held: FeedEvent[] = [];
    let passed = start === null;
    try {
      for await (const event of client.events.list(params)) {
        if (!passed && start) {
          if (event.id === start.lastEventId) {
            skipped += held.length + 1;
            held = [];
            passed = true;
            continue;
          }
          if (isTimestamp(event.created_at) && sameInstant(event.created_at, start.createdAt)) {
            held.push(event);
            continue;
          }
          // A later instant, and the checkpoint's event never came (it left the 30-day window, or the
          // key lost access): what was held may be new, so hand it on; the dedupe store drops repeats.
          passed = true;
          for (const earlier of held) await handle(earlier);
          held = [];
        }
        await handle(event);
      }
      for (const earlier of held) await handle(earlier);
    } finally {
      // Also when onEvent, the feed or the dedupe store failed: the next run resumes after the last event
      // that was handled.
      if (checkpoint && unsaved > 0) await this.#checkpoints.save(checkpoint);
    }
    return { processed, skipped, checkpoint };
  }
}

function sameInstant(a: string, b: string): boolean {
  return isTimestamp(b) && compareTimestamps(a, b) === 0;
}

function toIso(since: string | Date | undefined): string | undefined {
  if (since === undefined) return undefined;
  if (since instanceof Date) {
    if (Number.isNaN(since.getTime())) throw new ShopError('since is an invalid Date.');
    return since.toISOString();
  }
  if (!isTimestamp(since))
    throw new ShopError(`since must be an ISO-8601 timestamp or a Date, got ${JSON.stringify(since)}.`);
  return since;
}
