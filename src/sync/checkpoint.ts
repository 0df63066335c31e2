/** Where the feed catch-up stopped: a plain JSON object, stored whole. */
export interface Checkpoint {
  /** The last event read at the latest `created_at`. */
  readonly lastEventId: string;
  /** The `created_at` of `lastEventId`, as the API sent it. */
  readonly createdAt: string;
  /** Ids passed within `overlapSeconds` before `createdAt`. */
  readonly seen?: readonly string[];
  /** Events whose claim another handler held. */
  readonly held?: readonly HeldClaim[];
}

/** An event found claimed by another handler. */
export interface HeldClaim {
  readonly id: string;
  /** The event's `created_at`. */
  readonly createdAt: string;
  /** When the claim was first found held (ISO-8601). */
  readonly heldSince: string;
}

/** Keeps the catch-up's {@link Checkpoint} between runs (a database row, a file). */
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

  load(): Checkpoint | null {
    return this.#checkpoint;
  }

  save(checkpoint: Checkpoint): void {
    this.#checkpoint = checkpoint;
  }
}
