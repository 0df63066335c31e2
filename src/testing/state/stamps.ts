import { noteWrites } from './table.js';

/** A record that carries `updated_at`. */
export interface Stamped {
  updated_at: string;
}

/**
 * Stamps a change to `record` at `atMs`, at least 1 ms past its previous `updated_at` (on the frozen clock
 * changes share a millisecond, and receivers order events by `updated_at`), and notes the write.
 */
export function touch(record: Stamped, atMs: number): string {
  const previous = Date.parse(record.updated_at);
  const stamp = new Date(previous >= atMs ? previous + 1 : atMs).toISOString();
  record.updated_at = stamp;
  noteWrites();
  return stamp;
}
