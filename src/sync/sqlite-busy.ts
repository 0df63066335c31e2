// Waiting for another process's SQLite write lock without blocking the event loop: SQLite's own busy wait
// (`busy_timeout`) sleeps inside the synchronous driver call, so nothing else in the process runs meanwhile
// (no webhook answered, no transaction of another connection of the same process finished). The inbox store
// and the sync engine turn it off and wait here, between attempts.
import { DatabaseUnavailableError } from './database-unavailable.js';

/** SQLITE_BUSY from better-sqlite3 (`code`) or node:sqlite (`errcode`, `errstr`). */
export function isBusy(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
  if (typeof errcode === 'number' && (errcode & 0xff) === 5) return true;
  return typeof message === 'string' && /database is locked/i.test(message);
}

/**
 * Runs `step`; while another process holds the write lock (SQLITE_BUSY), tries again after a short pause
 * (the event loop runs meanwhile) until `deadline` (`performance.now()` time), then fails with a
 * {@link DatabaseUnavailableError} saying it waited `waitMs`.
 */
export async function patiently<T>(step: () => T, deadline: number, waitMs: number): Promise<T> {
  for (let pause = 2; ; pause = Math.min(pause * 2, 25)) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error)) throw error;
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new DatabaseUnavailableError(
          `The SQLite database is locked by another process (waited ${waitMs} ms); nothing was written, try again.`,
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
  }
}
