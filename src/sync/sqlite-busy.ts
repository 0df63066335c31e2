// Waits for another process's SQLite write lock between attempts: SQLite's own `busy_timeout` sleeps inside
// the synchronous call and blocks the event loop.
import { DatabaseUnavailableError } from './database-unavailable.js';

/** SQLITE_BUSY from better-sqlite3 (`code`) or node:sqlite (`errcode`, `errstr`). */
export function isBusy(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
  if (typeof errcode === 'number' && (errcode & 0xff) === 5) return true;
  return typeof message === 'string' && /database is locked/i.test(message);
}

/** Runs `step`, retrying on SQLITE_BUSY until `deadline`, then a {@link DatabaseUnavailableError}. */
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
