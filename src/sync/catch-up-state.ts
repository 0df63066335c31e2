import type { Checkpoint, HeldClaim } from './checkpoint.js';
import { compareTimestamps, isTimestamp, secondsBefore } from './timestamps.js';

/** The least of an event the catch-up reads; `ShopClient`'s events satisfy it. */
export interface FeedEvent {
  readonly id: string;
  readonly type: string;
  readonly created_at: string;
}

/** What one run knows around its checkpoint: the last event passed, the overlap's ids, the held claims. */
export class CatchUpState {
  #position: { readonly id: string; readonly createdAt: string } | null;
  // id -> created_at; null for an id of the stored checkpoint that this run has not read again yet.
  readonly #seen = new Map<string, string | null>();
  readonly #held = new Map<string, HeldClaim>();
  // Held claims this run met; one not met after a full read has left the feed.
  readonly #heldMet = new Set<string>();
  readonly #overlapSeconds: number;
  /** The start of the overlap before the checkpoint. */
  readonly windowStart: string | undefined;
  /** Where the run reads from: the overlap, or the oldest held claim if that is older. */
  readonly readFrom: string | undefined;
  /** The stored checkpoint has no `seen`: the run reads from `createdAt` itself. */
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

  /** The held claim of `event`, if still held. */
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

  /** An event older than the overlap, read only for an older held claim. */
  isBeforeWindow(event: FeedEvent): boolean {
    return (
      this.windowStart !== undefined &&
      isTimestamp(event.created_at) &&
      compareTimestamps(event.created_at, this.windowStart) < 0
    );
  }

  /** Records `event` as passed; the checkpoint only moves forward. */
  pass(event: FeedEvent): void {
    this.#held.delete(event.id);
    this.#seen.set(event.id, event.created_at);
    this.#advance(event);
  }

  /** Records that another handler holds `event`'s claim. */
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

  /** The checkpoint to save; when `complete`, what the run did not meet again is dropped. */
  checkpoint(complete: boolean): Checkpoint | null {
    if (this.#position === null) return null;
    const from = secondsBefore(this.#position.createdAt, this.#overlapSeconds);
    const seen: string[] = [];
    for (const [id, createdAt] of this.#seen) {
      const keep =
        createdAt === null ? !complete : isTimestamp(createdAt) && compareTimestamps(createdAt, from) >= 0;
      // What falls out of the window is not met again: memory stays small over 30 days of events.
      if (keep) seen.push(id);
      else this.#seen.delete(id);
    }
    const held = [...this.#held.values()].filter((claim) => !complete || this.#heldMet.has(claim.id));
    return { lastEventId: this.#position.id, createdAt: this.#position.createdAt, seen, held };
  }
}
