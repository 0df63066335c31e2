/**
 * Where the feed catch-up stopped. A plain JSON object: store it whole (a JSON column, a file). The next
 * run reads the feed again from `overlapSeconds` before `createdAt` and drops the ids in `seen`.
 */
export interface Checkpoint {
  /** The newest event passed: the last one read at the latest `created_at`. */
  readonly lastEventId: string;
  /** The `created_at` of `lastEventId`, as the API sent it. */
  readonly createdAt: string;
  /**
   * Ids already passed (handed on, or claimed by the webhook handler) whose `created_at` falls within
   * `overlapSeconds` before `createdAt`: the run that reads them again drops them, and hands on any other
   * event of that window, one whose transaction committed late. A checkpoint without it (from a store that
   * keeps only the two fields above) is read from `createdAt` itself; see docs/sync.md.
   */
  readonly seen?: readonly string[];
  /**
   * Events whose claim another handler (a webhook delivery maybe still being processed) held when the
   * catch-up read them. Each run reads the feed from the oldest of them and tries the claim again, until
   * `settleSeconds` after it was first found held.
   */
  readonly held?: readonly HeldClaim[];
}

/** An event the catch-up found claimed in the dedupe store by another handler; see {@link Checkpoint.held}. */
export interface HeldClaim {
  readonly id: string;
  /** The event's `created_at`: runs read the feed from here while the claim is watched. */
  readonly createdAt: string;
  /** When the catch-up first found the claim held, by its own clock (ISO-8601). */
  readonly heldSince: string;
}

/**
 * Keeps the catch-up's {@link Checkpoint} between runs; implement it over a database row or a file so a
 * restarted process resumes where it stopped. Save and load the whole object.
 */
export interface CheckpointStore {
  /** The saved checkpoint, or null on the first run. */
  load(): Checkpoint | null | Promise<Checkpoint | null>;
  /** Stores the whole checkpoint, replacing the previous one. */
  save(checkpoint: Checkpoint): void | Promise<void>;
}

/** A {@link CheckpointStore} in memory: a restart replays the feed from the start of its window. */
export class MemoryCheckpointStore implements CheckpointStore {
  #checkpoint: Checkpoint | null;

  constructor(initial: Checkpoint | null = null) {
    this.#checkpoint = initial;
  }

  /** The checkpoint saved last in this process, or null. */
  load(): Checkpoint | null {
    return this.#checkpoint;
  }

  /** Keeps the checkpoint in memory (lost when the process ends). */
  save(checkpoint: Checkpoint): void {
    this.#checkpoint = checkpoint;
  }
}
