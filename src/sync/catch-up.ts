import { ShopError } from '../core/errors/shop-error.js';
import {
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_LEASE_SECONDS,
  DEFAULT_STORE_TIMEOUT_MS,
  type DedupeStore,
  hasLeases,
} from '../webhooks/dedupe.js';
import type { EventType, ShopEvent } from '../webhooks/events.js';
import { bounded } from '../webhooks/respond-within.js';
import type { EventContext, EventHandler } from '../webhooks/router.js';
import { CatchUpState, type FeedEvent } from './catch-up-state.js';
import { type Checkpoint, type CheckpointStore, MemoryCheckpointStore } from './checkpoint.js';
import { type Poller, type PollOptions, poll } from './poll.js';
import { compareTimestamps, isTimestamp } from './timestamps.js';

/**
 * What the catch-up needs from a client: `events.list` walking the feed with `for await`. A `ShopClient`
 * fits; so does any object with the same method (a test double, a client wrapper).
 */
export interface EventFeedSource {
  readonly events: {
    /** `shop.events.list`: the feed's events, every page. */
    list(params: { updated_since?: string; type?: string; limit?: number }): AsyncIterable<FeedEvent>;
  };
}

/** Options of {@link EventCatchUp}. */
export interface EventCatchUpOptions {
  /** The client to read `GET /v1/events` with (a `ShopClient`). */
  client: EventFeedSource;
  /**
   * Called once per new event, oldest first; give the webhook handler the same function. Not with `inbox`.
   */
  onEvent?: EventHandler;
  /**
   * A durable inbox (an `Inbox` of `shop-mgmt/inbox`, the one the webhook handler writes to): each event
   * of the feed is written to it (a duplicate of one a webhook brought is a no-op) instead of handed to
   * `onEvent`, and the inbox's workers process it.
   */
  inbox?: {
    /** Writes the event down once (an id already there is a no-op: `'duplicate'`). */
    add(event: ShopEvent, source: 'feed'): Promise<'added' | 'duplicate'>;
  };
  /**
   * The dedupe store of the webhook handler: an event that came by webhook is then not handled again when
   * the feed brings it back, and the other way round. Without one, the catch-up still never hands on an
   * event twice itself, but knows nothing of webhooks.
   */
  dedupe?: DedupeStore;
  /**
   * The key an event is claimed under in `dedupe`: give it the same function as the webhook handler's
   * `dedupeKey` (without the request, which the feed has not), e.g. `` (event) => `${shopId}:${event.id}` ``
   * for a receiver serving several shops. @default the event id
   */
  dedupeKey?: (event: ShopEvent) => string;
  /** How long a processed id is remembered, in seconds. @default 259200 (3 days) */
  dedupeTtlSeconds?: number;
  /** How long an event is held in progress with a lease store, in seconds (renewed while it runs). @default 30 */
  leaseSeconds?: number;
  /** Longest a dedupe store or inbox call may take, in ms; past it the run fails and the next retries. @default 500 */
  storeTimeoutMs?: number;
  /** Keeps the checkpoint between runs. @default a MemoryCheckpointStore */
  checkpoints?: CheckpointStore;
  /** Where the first run starts when there is no checkpoint. @default the start of the feed (30 days back) */
  since?: string | Date;
  /** Only events of this type (the feed takes one type). */
  type?: EventType;
  /** Page size, 1 to 200. @default the API's (50) */
  pageSize?: number;
  /** Saves the checkpoint after this many events read, as well as at the end of a run. @default 50 */
  checkpointEvery?: number;
  /**
   * How far before the checkpoint each run reads the feed again, in seconds. An event can become visible
   * after events created later (its transaction committed later); one created up to this long before the
   * checkpoint is still handed on. The checkpoint keeps the ids of this window. @default 60
   */
  overlapSeconds?: number;
  /**
   * Only for a dedupe store without leases (one with `claim` and `release` only, written before leases):
   * how long the catch-up keeps coming back to an event whose claim it found held by another handler, in
   * seconds; after it, a claim still held is taken as processed (an event whose handler died is then lost).
   * With a lease store (`MemoryDedupeStore`, `RedisDedupeStore`) the catch-up never does that: it comes back
   * to an event in progress until it is done, or its lease runs out and the catch-up processes it itself.
   * @default 60
   */
  settleSeconds?: number;
}

/** What one {@link EventCatchUp.run} did. */
export interface CatchUpResult {
  /** Events handed to `onEvent`. */
  readonly processed: number;
  /** Events read and not handed on: passed by an earlier run, or claimed in the dedupe store. */
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
 * A run reads again from `overlapSeconds` before the checkpoint, because an event can become visible after
 * events created later (its transaction committed later), and drops the ids the checkpoint says it passed
 * there. When `onEvent` throws, the run saves the checkpoint of what it passed and rejects; the next run
 * hands on the failed event again.
 *
 * @example
 * const catchUp = new EventCatchUp({ client: shop, onEvent: router.dispatch, dedupe, checkpoints });
 * const poller = catchUp.start({ intervalMs: 60_000 });
 */
export class EventCatchUp {
  readonly #options: EventCatchUpOptions;
  readonly #checkpoints: CheckpointStore;
  readonly #overlapSeconds: number;
  readonly #heldClaimLimitMs: number;
  readonly #leaseSeconds: number;
  readonly #storeTimeoutMs: number;
  #running: Promise<CatchUpResult> | null = null;

  constructor(options: EventCatchUpOptions) {
    if (typeof options?.client?.events?.list !== 'function') {
      throw new ShopError('EventCatchUp needs a client with events.list (a ShopClient).');
    }
    if (options.inbox !== undefined) {
      if (typeof options.inbox?.add !== 'function') {
        throw new ShopError('EventCatchUp inbox must be an Inbox of shop-mgmt/inbox (one with add).');
      }
      if (options.onEvent !== undefined || options.dedupe !== undefined) {
        throw new ShopError(
          'EventCatchUp with an inbox writes events to it; the inbox worker processes them: drop onEvent and dedupe.',
        );
      }
    } else if (typeof options.onEvent !== 'function') {
      throw new ShopError('EventCatchUp needs an onEvent function (or an inbox).');
    }
    if (options.dedupeKey !== undefined && typeof options.dedupeKey !== 'function') {
      throw new ShopError('EventCatchUp dedupeKey must be a function (event) => string.');
    }
    this.#options = options;
    this.#checkpoints = options.checkpoints ?? new MemoryCheckpointStore();
    this.#overlapSeconds = wholeSeconds(options.overlapSeconds ?? 60, 'overlapSeconds');
    this.#heldClaimLimitMs = wholeSeconds(options.settleSeconds ?? 60, 'settleSeconds') * 1000;
    this.#leaseSeconds = wholeSeconds(options.leaseSeconds ?? DEFAULT_LEASE_SECONDS, 'leaseSeconds') || 1;
    this.#storeTimeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    if (!Number.isInteger(this.#storeTimeoutMs) || this.#storeTimeoutMs < 1) {
      throw new ShopError(
        `storeTimeoutMs must be a whole number of ms, 1 or more, got ${this.#storeTimeoutMs}.`,
      );
    }
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
      options.onError ?? ((error: unknown) => console.error('shop-mgmt: event catch-up failed', error)),
    );
  }

  async #run(): Promise<CatchUpResult> {
    const { client, type, pageSize, dedupe } = this.#options;
    const ttl = this.#options.dedupeTtlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS;
    const every = this.#options.checkpointEvery ?? 50;
    const start = await this.#checkpoints.load();
    if (start !== null) checkCheckpoint(start);
    const state = new CatchUpState(start, this.#overlapSeconds);
    let saved = start;
    let unsaved = 0;
    let processed = 0;
    let skipped = 0;

    const save = async (complete: boolean): Promise<void> => {
      const checkpoint = state.checkpoint(complete);
      if (checkpoint) await this.#checkpoints.save(checkpoint);
      saved = checkpoint ?? saved;
      unsaved = 0;
    };
    const count = async (events = 1): Promise<void> => {
      unsaved += events;
      if (unsaved >= every) await save(false);
    };
    // An event no run has passed, or one whose claim was held (`heldSince`): handed on unless another
    // handler holds its claim. A claim held may belong to a webhook delivery still being processed, which
    // releases it if it fails; so the event is held, and read again by later runs until the claim is done, released, or held past `settleSeconds`.
    const { inbox } = this.#options;
    const leases = dedupe ? hasLeases(dedupe) : false;
    const limit = this.#storeTimeoutMs;
    const take = async (event: FeedEvent, heldSince?: string): Promise<void> => {
      if (inbox) {
        // Written down; the inbox's workers process it (a duplicate of a webhook's is a no-op).
        const added = await bounded('inbox add', () => inbox.add(event as ShopEvent, 'feed'), limit);
        if (added === 'added') processed++;
        else skipped++;
        state.pass(event);
        await count();
        return;
      }
      const key = dedupe ? this.#claimKey(event) : event.id;
      const claim = dedupe
        ? await bounded(
            'dedupe claim',
            () => dedupe.claim(key, leases ? this.#leaseSeconds : ttl),
            limit,
            (late) => (typeof late === 'string' ? dedupe.release(key, late) : undefined),
          )
        : true;
      if (claim) {
        const token = typeof claim === 'string' ? claim : '';
        const heartbeat =
          dedupe && leases
            ? setInterval(
                () => {
                  bounded('dedupe renew', () => dedupe.renew?.(key, token, this.#leaseSeconds), limit).catch(
                    () => undefined,
                  );
                },
                Math.max(100, (this.#leaseSeconds * 1000) / 3),
              )
            : undefined;
        (heartbeat as { unref?: () => void } | undefined)?.unref?.();
        try {
          await this.#options.onEvent?.(event as ShopEvent, FEED_CONTEXT);
        } catch (error) {
          // With its token, the release removes only this run's claim, not one taken after it expired. A
          // release that fails is harmless with leases: the lease runs out.
          await bounded('dedupe release', () => dedupe?.release(key, token || undefined), limit).catch(
            () => undefined,
          );
          throw error;
        } finally {
          clearInterval(heartbeat);
        }
        if (dedupe && leases) {
          await bounded('dedupe complete', () => dedupe.complete?.(key, token, ttl), limit);
        }
        processed++;
        state.pass(event);
      } else if (dedupe && leases) {
        skipped++;
        // Done elsewhere: passed. In progress elsewhere: held, and tried again by later runs until it is
        // done, or its lease runs out (the handler died) and a run processes it.
        if (await bounded('dedupe isDone', () => dedupe.isDone?.(key), limit)) state.pass(event);
        else state.hold(event, heldSince ?? new Date().toISOString());
      } else {
        skipped++;
        if (heldSince !== undefined && this.#heldLongEnough(heldSince)) state.pass(event);
        else state.hold(event, heldSince ?? new Date().toISOString());
      }
      await count();
    };

    const since = state.readFrom ?? toIso(this.#options.since);
    const params = {
      ...(since !== undefined ? { updated_since: since } : {}),
      ...(type !== undefined ? { type } : {}),
      ...(pageSize !== undefined ? { limit: pageSize } : {}),
    };
    // A bare checkpoint without a dedupe store cannot tell which events of its instant were passed: as
    // earlier versions did, those before its own event in feed order are taken as passed, the others handed
    // on. (With a dedupe store, the claims tell.)
    let bareInstant: FeedEvent[] | null = start && state.bare && !dedupe ? [] : null;
    let complete = false;
    try {
      for await (const event of client.events.list(params)) {
        const held = state.heldClaim(event);
        if (held) {
          await take(event, held.heldSince);
          continue;
        }
        if (bareInstant && start) {
          if (event.id === start.lastEventId) {
            for (const earlier of bareInstant) state.pass(earlier);
            skipped += bareInstant.length + 1;
            await count(bareInstant.length + 1);
            bareInstant = null;
            continue;
          }
          if (sameInstant(event.created_at, start.createdAt)) {
            bareInstant.push(event);
            continue;
          }
          // A later instant, and the checkpoint's event never came (it left the 30-day window, or the key
          // lost access): what was held may be new, so it is handed on.
          const waiting = bareInstant;
          bareInstant = null;
          for (const earlier of waiting) await take(earlier);
        }
        // Older than the overlap: read only to reach a held claim older still.
        if (state.hasPassed(event) || state.isBeforeWindow(event)) {
          skipped++;
          await count();
          continue;
        }
        await take(event);
      }
      for (const earlier of bareInstant ?? []) await take(earlier);
      complete = true;
    } finally {
      // Also when onEvent, the feed or the dedupe store failed: the next run resumes after what was passed.
      if (unsaved > 0) await save(complete);
    }
    return { processed, skipped, checkpoint: saved };
  }

  /** True once `settleSeconds` have passed since the claim was first found held. */
  /** The dedupe key of `event`: the caller's, which must be a non-empty string, or the event id. */
  #claimKey(event: FeedEvent): string {
    const { dedupeKey } = this.#options;
    if (!dedupeKey) return event.id;
    const key = dedupeKey(event as ShopEvent);
    if (typeof key !== 'string' || key === '') {
      throw new ShopError(
        `EventCatchUp dedupeKey gave ${typeof key} for ${event.id}; it must give a non-empty string.`,
      );
    }
    return key;
  }

  #heldLongEnough(heldSince: string): boolean {
    const since = Date.parse(heldSince);
    // An unreadable time (a hand-edited checkpoint) must not pin the read window for ever.
    return Number.isNaN(since) || Date.now() - since >= this.#heldClaimLimitMs;
  }
}

/** A stored checkpoint the run can start from, or a clear error rather than a RangeError deep inside. */
function checkCheckpoint(checkpoint: Checkpoint): void {
  const { seen, held } = checkpoint;
  if (
    typeof checkpoint.lastEventId !== 'string' ||
    !isTimestamp(checkpoint.createdAt) ||
    (seen !== undefined && (!Array.isArray(seen) || !seen.every((id) => typeof id === 'string'))) ||
    (held !== undefined && (!Array.isArray(held) || !held.every(isHeldClaim)))
  ) {
    throw new ShopError(
      'The stored checkpoint is not one EventCatchUp saved: it needs lastEventId (string), createdAt ' +
        '(ISO-8601) and, if present, seen (array of ids) and held (array of { id, createdAt, heldSince }).',
    );
  }
}

function isHeldClaim(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const claim = value as Record<string, unknown>;
  return typeof claim.id === 'string' && isTimestamp(claim.createdAt) && typeof claim.heldSince === 'string';
}

function sameInstant(a: string, b: string): boolean {
  return isTimestamp(a) && isTimestamp(b) && compareTimestamps(a, b) === 0;
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

function wholeSeconds(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new ShopError(`${name} must be a whole number of seconds, 0 or more, got ${value}.`);
  }
  return value;
}
