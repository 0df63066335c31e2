import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { SandboxUsageError } from '../testing/errors.js';
import type { SandboxOptions } from '../testing/options.js';
import type { Sandbox } from '../testing/sandbox.js';
import { restoreSandbox, type SandboxSnapshot, sandboxSnapshot } from '../testing/snapshot.js';
import { usageError } from './exit-codes.js';

/** Reads a state file into a sandbox, or null when there is no file yet; a bad file is a usage error. */
export async function loadState(path: string, overrides: SandboxOptions): Promise<Sandbox | null> {
  if (!existsSync(path)) return null;
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw usageError(
      `--state ${path} is not a readable JSON sandbox state (${(error as Error).message}); move it away to start a fresh shop`,
    );
  }
  try {
    return restoreSandbox(snapshot, overrides);
  } catch (error) {
    const reason =
      error instanceof SandboxUsageError
        ? error.message
        : `it could not be restored (${(error as Error).message})`;
    throw usageError(`--state ${path}: ${reason}; move it away to start a fresh shop`);
  }
}

/**
 * Saves the sandbox to `path` whenever it changed, at most once a second, and once more at exit. The file
 * holds the sandbox's keys and webhook secrets, so it is written for its owner only (0600), through a
 * temporary file so a crash never leaves half a state.
 */
export class StateSaver {
  #dirty = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly path: string,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Notes a change; the save follows within a second. */
  changed(): void {
    this.#dirty = true;
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.save();
    }, 1000);
    this.#timer.unref();
  }

  /** Saves now if anything changed (and always when `force`). */
  save(force = false): Promise<void> {
    if (!this.#dirty && !force) return this.#saving;
    this.#dirty = false;
    const snapshot: SandboxSnapshot = sandboxSnapshot(this.sandbox);
    this.#saving = this.#saving
      .then(() => write(this.path, snapshot))
      .catch((error: Error) => this.onError(error));
    return this.#saving;
  }

  /** Stops the timer and writes the last state. */
  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.save(true);
  }
}

async function write(path: string, snapshot: SandboxSnapshot): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(snapshot), { mode: 0o600 });
  await rename(temporary, path);
}
