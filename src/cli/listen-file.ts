import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Checkpoint, CheckpointStore } from '../sync/checkpoint.js';
import { usageError } from './exit-codes.js';

const VERSION = 1;

interface ListenFile {
  version: number;
  /** The local signing secret: kept so the receiver's configuration survives restarts. */
  secret: string;
  /** The feed's base URL the checkpoint belongs to. */
  baseUrl: string;
  checkpoint: Checkpoint | null;
  /** Attempts made per event id (the most recent MAX_ATTEMPT_RECORDS), so a restart numbers on. */
  attempts: Record<string, number>;
  /** Events set aside after every attempt failed (the most recent MAX_ATTEMPT_RECORDS). */
  deadLetters?: DeadLetter[];
}

/** An event `listen` set aside: the receiver refused every attempt; `replay` sends it again. */
export interface DeadLetter {
  readonly eventId: string;
  readonly eventType: string;
  /** When it was set aside (wall time, ISO-8601). */
  readonly at: string;
  readonly attempts: number;
  /** The receiver's last status. */
  readonly status: number | null;
  /** The start of the receiver's last answer. */
  readonly answer: string | null;
}

const MAX_ATTEMPT_RECORDS = 1_000;

/**
 * The `listen` checkpoint file: the EventCatchUp checkpoint and the local signing secret, written on every
 * change (through a temporary file, for its owner only: it holds a whsec_ secret), read at start.
 */
export class ListenFileStore implements CheckpointStore {
  #data: ListenFile;
  /** Dead-letter changes since the last write, laid over the file as it is then (`replay` may have changed it). */
  #deadAdded = new Map<string, DeadLetter>();
  #deadCleared = new Set<string>();

  private constructor(
    readonly path: string,
    data: ListenFile,
    /** The base URL the file was written for when it is another than this run's (its checkpoint is dropped). */
    readonly otherBaseUrl: string | null = null,
    /** True when the file existed: the secret is the one kept there, not a new one. */
    readonly existed = false,
  ) {
    this.#data = data;
  }

  /** Opens the file, or starts a new one with a fresh secret; a bad file is a usage error. */
  static open(path: string, baseUrl: string): ListenFileStore {
    if (!existsSync(path)) {
      return new ListenFileStore(path, {
        version: VERSION,
        secret: newSecret(),
        baseUrl,
        checkpoint: null,
        attempts: {},
        deadLetters: [],
      });
    }
    let data: Partial<ListenFile>;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as Partial<ListenFile>;
    } catch (error) {
      throw usageError(
        `checkpoint file ${path} is not JSON (${(error as Error).message}); delete it to start over`,
      );
    }
    if (data?.version !== VERSION || typeof data.secret !== 'string' || !data.secret.startsWith('whsec_')) {
      throw usageError(
        `checkpoint file ${path} is not one this shop-mgmt wrote (version ${VERSION}); delete it to start over`,
      );
    }
    const same = data.baseUrl === baseUrl;
    const store = new ListenFileStore(
      path,
      {
        version: VERSION,
        secret: data.secret,
        baseUrl,
        // A checkpoint of another shop means nothing here: start from now (said by listen), keep the secret.
        checkpoint: same ? (data.checkpoint ?? null) : null,
        attempts: same && isCounts(data.attempts) ? data.attempts : {},
        deadLetters: same && Array.isArray(data.deadLetters) ? data.deadLetters : [],
      },
      same ? null : String(data.baseUrl ?? 'an unknown shop'),
      true,
    );
    return store;
  }

  get secret(): string {
    return this.#data.secret;
  }

  load(): Checkpoint | null {
    return this.#data.checkpoint;
  }

  async save(checkpoint: Checkpoint | null): Promise<void> {
    this.#data = { ...this.#data, checkpoint };
    this.#ownPosition = true;
    await this.flush();
  }

  /** Drops the checkpoint, the attempt counts and the events set aside (they were of another shop). */
  async forget(): Promise<void> {
    this.#data = { ...this.#data, checkpoint: null, attempts: {}, deadLetters: [] };
    this.#deadAdded.clear();
    this.#deadCleared.clear();
    this.#forgotten = true;
    await this.flush();
  }

  #forgotten = false;
  /** True once this process moved the checkpoint or counted an attempt (listen); `replay` never does. */
  #ownPosition = false;

  /** Attempts made for an event so far (0 when none). */
  attemptsOf(eventId: string): number {
    return this.#data.attempts[eventId] ?? 0;
  }

  /** Records an attempt, keeping the most recent MAX_ATTEMPT_RECORDS events. */
  async noteAttempt(eventId: string, attempt: number): Promise<void> {
    const attempts = { ...this.#data.attempts };
    delete attempts[eventId];
    attempts[eventId] = attempt;
    const ids = Object.keys(attempts);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_ATTEMPT_RECORDS))) delete attempts[old];
    this.#data = { ...this.#data, attempts };
    this.#ownPosition = true;
    await this.flush();
  }

  /** The events set aside, oldest first. */
  get deadLetters(): readonly DeadLetter[] {
    return this.#data.deadLetters ?? [];
  }

  /** Sets an event aside (replacing an earlier entry of the same event). */
  async deadLetter(entry: DeadLetter): Promise<void> {
    const kept = this.deadLetters.filter((other) => other.eventId !== entry.eventId);
    this.#data = { ...this.#data, deadLetters: [...kept, entry].slice(-MAX_ATTEMPT_RECORDS) };
    this.#deadCleared.delete(entry.eventId);
    this.#deadAdded.set(entry.eventId, entry);
    await this.flush();
  }

  /** Takes an event off the list (delivered by `replay`); false when it was not on it. */
  async clearDeadLetter(eventId: string): Promise<boolean> {
    const kept = this.deadLetters.filter((other) => other.eventId !== eventId);
    if (kept.length === this.deadLetters.length) return false;
    this.#data = { ...this.#data, deadLetters: kept };
    this.#deadAdded.delete(eventId);
    this.#deadCleared.add(eventId);
    await this.flush();
    return true;
  }

  /** Writes the file as it is (also the secret of a first start). */
  flush(): Promise<void> {
    // One write at a time, each of the latest data, so a slow disk never puts an older state last.
    this.#writing = this.#writing.then(async () => {
      await mkdir(dirname(this.path), { recursive: true });
      this.#mergeDeadLetters();
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(this.#data, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, this.path);
    });
    return this.#writing;
  }

  #writing: Promise<void> = Promise.resolve();

  /**
   * The events set aside as the file holds them now, with this process's own changes laid over: `replay`
   * (another process) takes an event off the list while `listen` runs, and listen's next write keeps that.
   */
  #mergeDeadLetters(): void {
    if (this.#forgotten) {
      this.#forgotten = false; // this write replaces the other shop's list
      return;
    }
    let onDisk: Partial<ListenFile> | null = null;
    try {
      onDisk = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<ListenFile>;
    } catch {
      return; // no file yet, or one being replaced: this process's list stands
    }
    if (onDisk?.baseUrl !== this.#data.baseUrl) return;
    // A process that never moved the position (replay, --print-secret) keeps the one on disk: listen may
    // have moved it since this process read the file, and writing the older one back would send events twice.
    if (!this.#ownPosition && onDisk.version === VERSION) {
      this.#data = {
        ...this.#data,
        checkpoint: onDisk.checkpoint ?? null,
        attempts: isCounts(onDisk.attempts) ? onDisk.attempts : this.#data.attempts,
      };
    }
    if (!Array.isArray(onDisk.deadLetters)) return;
    const merged = onDisk.deadLetters.filter(
      (entry) => !this.#deadCleared.has(entry.eventId) && !this.#deadAdded.has(entry.eventId),
    );
    merged.push(...this.#deadAdded.values());
    this.#data = { ...this.#data, deadLetters: merged.slice(-MAX_ATTEMPT_RECORDS) };
    this.#deadAdded.clear();
    this.#deadCleared.clear();
  }
}

function isCounts(value: unknown): value is Record<string, number> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((count) => Number.isSafeInteger(count) && (count as number) > 0)
  );
}

function newSecret(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(24));
  return `whsec_local_${Buffer.from(bytes).toString('base64url')}`;
}
