import { noteWrites } from '../state/table.js';

/** A record that carries `updated_at`. */
export interface Stamped {
  updated_at: string;
}

/**
 * Stamps a change to `record` made at `atMs` (the clock's now, or the time a scheduled job was due) and
 * returns the stamp: `atMs`, but at least 1 ms past the record's previous `updated_at`. On the frozen clock
 * successive changes share one millisecond, and receivers order a record's events by `updated_at`
 * (reference section 6: skip an event whose updated_at is older than the one held), so every record's
 * stamps strictly increase. Tables hear of it (`noteWrites`): their list indexes re-check their rows.
 */
export function touch(record: Stamped, atMs: number): string {
  const previous = Date.parse(record.updated_at);
  const stamp = new Date(previous >= atMs ? previous + 1 : atMs).toISOString();
  record.updated_at = stamp;
  noteWrites();
  return stamp;
}
