import type { Checkpoint, HeldClaim } from './checkpoint.js';
import { compareTimestamps, isTimestamp, secondsBefore } from './timestamps.js';

/** The least of an event the catch-up reads; `ShopClient`'s events satisfy it. */
export interface FeedEvent {
  readonly id: string;
  readonly type: string;
  readonly created_at: string;
}

/**
 * What one catch-up run knows of the feed around its checkpoint: the last event passed; the ids passed
 * within `overlapSeconds` before it (a run reads that overlap again, because an event can become visible
 * after events created later, and the ids tell it from what was passed); and the events whose claim another
 * handler held, which every run reads again until their claim is done, released, or held past `settleSeconds`.
 */
export class CatchUpState {
  #position: { readonly id: string; readonly createdAt: string } | null;
  // id -> created_at; null for an id of the stored checkpoint that this run has not read again yet.
  readonly #seen = new Map<string, string | null>();
  readonly #held = new Map<string, HeldClaim>();
  // Held claims this run read again (or added): one of the stored checkpoint not among them after a full
  // read has left the feed.
  readonly #heldMet = new Set<string>();
  readonly #overlapSeconds: number;
  /** The start of the overlap before the checkpoint: older events were passed by earlier runs. */
  readonly windowStart: string | undefined;
  /** Where the run reads from: the overlap, or the oldest held claim if that is older. */
  readonly readFrom: string | undefined;
  /**
   * The stored checkpoint has no `seen` (its store keeps only `lastEventId` and `createdAt`): the run
   * reads from `createdAt` itself, knowing only `lastEventId` of that instant.
   */
  readonly bare: boolean;

  constructor(start: Checkpoint | null, overlapSeconds: number) {
    this.#overlapSeconds = overlapSeconds;
    this.#position = start && { id: start.lastEventId, createdAt: start.createdAt };
    this.bare = start !== null && start.seen === undefined;
    if (start?.seen) for (const id of start.seen) this.#seen.set(id, null);
    else if (start) this.#seen.set(start.lastEventId, start.createdAt);
    for (const claim of start?.held ?? []) this.#held.set(claim.id, claim);
    this.windowStart =
      start === null
        ? undefined
        : this.bare
          ? start.createdAt
          : secondsBefore(start.createdAt, overlapSeconds);
    let from = this.windowStart;
    for (const claim of this.#held.values()) {
      if (from === undefined || compareTimestamps(claim.createdAt, from) < 0) from = claim.createdAt;
    }
    this.readFrom = from;
  }

  /** The held claim of `event`, if an earlier run found its claim held and it is still held. */
  heldClaim(event: FeedEvent): HeldClaim | undefined {
    const claim = this.#held.get(event.id);
    if (claim) this.#heldMet.add(event.id);
    return claim;
  }

  /** True when an earlier run passed `event`. */
  hasPassed(event: FeedEvent): boolean {
    if (!this.#seen.has(event.id)) return false;
    this.#seen.set(event.id, event.created_at);
    return true;
  }

  /** True for an event older than the overlap, read only because a held claim is older still. */
  isBeforeWindow(event: FeedEvent): boolean {
    return (
      this.windowStart !== undefined &&
      isTimestamp(event.created_at) &&
      compareTimestamps(event.created_at, this.windowStart) < 0
    );
  }

  /** Records `event` as passed (handed on, or its claim done, released or held too long); the checkpoint only ever moves forward. */
  pass(event: FeedEvent): void {
    this.#held.delete(event.id);
    this.#seen.set(event.id, event.created_at);
    this.#advance(event);
  }

  /**
   * Records that another handler holds `event`'s claim, since `heldSince`: later runs read it again. An
   * event without a timestamp `created_at` cannot be found again by `updated_since`, so it is passed.
   */
  hold(event: FeedEvent, heldSince: string): void {
    if (!isTimestamp(event.created_at)) {
      this.pass(event);
      return;
    }
    this.#held.set(event.id, { id: event.id, createdAt: event.created_at, heldSince });
    this.#heldMet.add(event.id);
    this.#advance(event);
  }

  #advance(event: FeedEvent): void {
    if (!isTimestamp(event.created_at)) return;
    if (this.#position === null || compareTimestamps(event.created_at, this.#position.createdAt) >= 0) {
      this.#position = { id: event.id, createdAt: event.created_at };
    }
  }

  /**
   * The checkpoint to save. `complete` once the run read the feed to its end: an id or held claim of the
   * stored checkpoint it did not meet again has left the feed and is dropped; after a failure it is kept.
   */
  checkpoint(complete: boolean): Checkpoint | null {
    if (this.#position === null) return null;
    const from = secondsBefore(this.#position.createdAt, this.#overlapSeconds);
    const seen: string[] = [];
    for (const [id, createdAt] of this.#seen) {
      const keep =
        createdAt === null ? !complete : isTimestamp(createdAt) && compareTimestamps(createdAt, from) >= 0;
      // The run reads forward, so what falls out of the window is not met again in it: memory stays small
      // over a first run through 30 days of events.
      if (keep) seen.push(id);
      else this.#seen.delete(id);
    }
    const held = [...this.#held.values()].filter((claim) => !complete || this.#heldMet.has(claim.id));
    return { lastEventId: this.#position.id, createdAt: this.#position.createdAt, seen, held };
  }
}
