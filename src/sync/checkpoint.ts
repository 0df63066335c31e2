/**
 * Where the feed catch-up stopped: the last event it handled and that event's `created_at`. Resuming
 * re-reads the feed from `createdAt` inclusive and drops what it had already seen.
 */
export interface Checkpoint {
  readonly lastEventId: string;
  /** The `created_at` of `lastEventId`, as the API sent it. */
  readonly createdAt: string;
}

/**
 * Keeps the catch-up's {@link Checkpoint} between runs; implement it over a database row or a file so a
 * restarted process resumes where it stopped.
 */
export interface CheckpointStore {
  load(): Checkpoint | null | Promise<Checkpoint | null>;
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
