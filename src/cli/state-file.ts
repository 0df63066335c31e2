import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { SandboxUsageError } from '../testing/errors.js';
import { ROUTES } from '../testing/features/routes.js';
import type { SandboxOptions } from '../testing/options.js';
import type { Sandbox } from '../testing/sandbox.js';
import { restoreSandbox, type SandboxSnapshot, sandboxSnapshot } from '../testing/snapshot.js';
import { usageError } from './exit-codes.js';

/**
 * Reads a state file into a sandbox, or null when there is no file yet; a bad file is a usage error. The
 * file is checked whole first, on a throwaway copy: every list the API serves is read page by page, and a
 * record the sandbox cannot answer (a 500) refuses the file with the path that failed.
 */
export async function loadState(
  path: string,
  overrides: SandboxOptions,
): Promise<{ sandbox: Sandbox; savedAt: string } | null> {
  if (!existsSync(path)) return null;
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw usageError(
      `--state ${path} is not a readable JSON sandbox state (${(error as Error).message}); move it away to start a fresh shop`,
    );
  }
  const refuse = (reason: string) =>
    usageError(`--state ${path}: ${reason}; move it away to start a fresh shop`);
  try {
    await checkWhole(restoreSandbox(snapshot, { autoDeliver: false }));
    const sandbox = restoreSandbox(snapshot, overrides);
    return { sandbox, savedAt: String((snapshot as { savedAt?: unknown }).savedAt ?? 'at an unknown time') };
  } catch (error) {
    if (error instanceof SandboxUsageError) throw refuse(error.message);
    throw refuse(`it could not be restored (${(error as Error).message})`);
  }
}

/** Every list route without a path parameter, walked to its last page: a 5xx means the state is damaged. */
async function checkWhole(sandbox: Sandbox): Promise<void> {
  const key = sandbox.createKey();
  const lists = ROUTES.filter((route) => route.method === 'GET' && !route.path.includes('{'));
  for (const route of lists) {
    let cursor: string | null = null;
    for (let page = 0; page < 100_000; page++) {
      const url = new URL(`${sandbox.baseUrl}${route.path}`);
      url.searchParams.set('limit', '100');
      if (cursor) url.searchParams.set('cursor', cursor);
      const response = await sandbox.fetch(url, { headers: { authorization: `Bearer ${key}` } });
      const body = (await response.json().catch(() => null)) as {
        meta?: { next_cursor?: string | null };
        error?: { message?: string };
      } | null;
      if (response.status >= 500) {
        throw new SandboxUsageError(
          `the state is damaged: GET ${route.path} answers ${response.status} (${body?.error?.message ?? 'no message'})`,
        );
      }
      cursor = response.ok ? (body?.meta?.next_cursor ?? null) : null;
      if (!cursor) break;
    }
  }
}

/** A lock on a --state file: one sandbox process per file. */
export interface StateLock {
  release(): void;
}

/**
 * Takes `<path>.lock` (holding this process's id), or refuses with a usage error while another live
 * process holds it; a lock left by a process that is gone is taken over.
 */
export function lockState(path: string): StateLock {
  const lockPath = `${path}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        rmSync(lockPath, { force: true });
      };
      process.once('exit', release);
      return { release };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') {
        throw usageError(`--state ${path}: cannot take the lock ${lockPath} (${(error as Error).message})`);
      }
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
        throw usageError(
          `--state ${path} is in use by another shop-mgmt sandbox (process ${holder}): two processes on one file would lose each other's changes. Stop it, or use another file`,
        );
      }
      rmSync(lockPath, { force: true }); // left by a process that is gone
    }
  }
  throw usageError(`--state ${path}: cannot take the lock ${lockPath}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
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
