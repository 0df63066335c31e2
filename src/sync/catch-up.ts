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

/** What the catch-up needs from a client: `events.list` (a `ShopClient` fits). */
export interface EventFeedSource {
  readonly events: {
    /** The feed's events, every page. */
    list(params: { updated_since?: string; type?: string; limit?: number }): AsyncIterable<FeedEvent>;
  };
}

/** Options of {@link EventCatchUp}. */
export interface EventCatchUpOptions {
  /** Reads `GET /v1/events`. */
  client: EventFeedSource;
  /** Called once per new event, oldest first (the webhook handler's function). Not with `inbox`. */
  onEvent?: EventHandler;
  /** A durable inbox each event is written to instead of `onEvent`. */
  inbox?: {
    /** Writes the event down once. */
    add(event: ShopEvent, source: 'feed'): Promise<'added' | 'duplicate'>;
  };
  /** The webhook handler's, so an event that came either way is handled once. */
  dedupe?: DedupeStore;
  /** The handler's `dedupeKey`. @default the event id */
  dedupeKey?: (event: ShopEvent) => string;
  /** Seconds a processed id is remembered. @default 259200 */
  dedupeTtlSeconds?: number;
  /** Seconds an event is held in progress with a lease store. @default 30 */
  leaseSeconds?: number;
  /** ms a dedupe store or inbox call may take before the run fails. @default 500 */
  storeTimeoutMs?: number;
  /** @default a MemoryCheckpointStore */
  checkpoints?: CheckpointStore;
  /** Where a run without a checkpoint starts. @default the start of the feed */
  since?: string | Date;
  /** Only events of this type (the feed takes one type). */
  type?: EventType;
  /** 1 to 200. @default 50 */
  pageSize?: number;
  /** Events between checkpoint saves. @default 50 */
  checkpointEvery?: number;
  /** Seconds before the checkpoint each run re-reads (late-committed events). @default 60 */
  overlapSeconds?: number;
  /** Without leases: seconds a claim held elsewhere is waited on before it counts as processed. @default 60 */
  settleSeconds?: number;
}

/** What one {@link EventCatchUp.run} did. */
export interface CatchUpResult {
  /** Events handed to `onEvent`. */
  readonly processed: number;
  /** Events read and not handed on. */
  readonly skipped: number;
  /** Null when the feed was empty and none existed. */
  readonly checkpoint: Checkpoint | null;
}

/** A running catch-up poll; see {@link EventCatchUp.start}. */
export type CatchUpPoller = Poller;

const FEED_CONTEXT: EventContext = { source: 'feed', delivery: null };

/**
 * Reads the event feed from a checkpoint and hands each unseen event to `onEvent`, oldest first; sharing the
 * webhook handler's dedupe store, each event is handled once whichever way it arrives.
 * @example
 * const poller = new EventCatchUp({ client: shop, onEvent: router.dispatch, dedupe, checkpoints }).start();
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

  /** Reads the feed from the checkpoint to its end once; a call during a run joins it. */
  run(): Promise<CatchUpResult> {
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** Runs now, then `intervalMs` (default 60 000) after each run until `stop()`. */
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
    // Not yet passed, or held before: handed on unless another handler holds its claim (then read again
    // until done, released, or held past `settleSeconds`).
    const { inbox } = this.#options;
    const leases = dedupe ? hasLeases(dedupe) : false;
    const limit = this.#storeTimeoutMs;
    const take = async (event: FeedEvent, heldSince?: string): Promise<void> => {
      if (inbox) {
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
          // With its token: only this run's claim is released; a failed release is harmless with leases.
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
        // Done elsewhere: passed. In progress elsewhere: tried again until done or its lease runs out.
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
    // Without a dedupe store, events of the checkpoint's instant before its own event count as passed.
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
          // A later instant and the checkpoint's event never came (left the window): what was held is handed on.
          const waiting = bareInstant;
          bareInstant = null;
          for (const earlier of waiting) await take(earlier);
        }
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
      // Also on failure: the next run resumes after what was passed.
      if (unsaved > 0) await save(complete);
    }
    return { processed, skipped, checkpoint: saved };
  }

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
    // An unreadable time (a hand-edited checkpoint) must not pin the window for ever.
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
