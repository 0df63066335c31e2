import type { FeedEvent } from './catch-up.js';
import type { Checkpoint } from './checkpoint.js';
import { compareTimestamps, isTimestamp, secondsBefore } from './timestamps.js';

/**
 * What one catch-up run knows of the feed around its checkpoint: the last event passed, and the ids passed
 * within `overlapSeconds` before it. A run reads that overlap again, because an event can become visible
 * after events created later (its transaction committed later); the ids tell it from what was passed.
 */
export class CatchUpState {
  #position: { readonly id: string; readonly createdAt: string } | null;
  // id -> created_at; null for an id of the stored checkpoint that this run has not read again yet.
  readonly #seen = new Map<string, string | null>();
  readonly #overlapSeconds: number;
  /** Where the run reads from: the overlap before the checkpoint. Undefined without a checkpoint. */
  readonly windowStart: string | undefined;
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
    this.windowStart =
      start === null
        ? undefined
        : this.bare
          ? start.createdAt
          : secondsBefore(start.createdAt, overlapSeconds);
  }

  /** True when an earlier run passed `event`. */
  hasPassed(event: FeedEvent): boolean {
    if (!this.#seen.has(event.id)) return false;
    this.#seen.set(event.id, event.created_at);
    return true;
  }

  /** Records `event` as passed (handed on, or claimed elsewhere); the checkpoint only ever moves forward. */
  pass(event: FeedEvent): void {
    this.#seen.set(event.id, event.created_at);
    if (!isTimestamp(event.created_at)) return;
    if (this.#position === null || compareTimestamps(event.created_at, this.#position.createdAt) >= 0) {
      this.#position = { id: event.id, createdAt: event.created_at };
    }
  }

  /**
   * The checkpoint to save. `complete` once the run read the feed to its end: an id of the stored checkpoint
   * it did not meet again has left the feed and is dropped; after a failure it is kept.
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
    return { lastEventId: this.#position.id, createdAt: this.#position.createdAt, seen };
  }
}
