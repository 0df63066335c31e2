import { createHash } from 'node:crypto';

/** Where a copy came from: a list read (the record as it is now) or an event (a snapshot at its time). */
export type CopySource = 'list' | { readonly eventId: string; readonly createdAt: string };

/**
 * The rank of a copy of a record (the `sync_version` column). A row is replaced only by a copy of a higher
 * rank (or of the same rank with a different record: a later list read), so the outcome never depends on the
 * order copies arrive in (reference section 6, rule 4):
 * - a record with `updated_at`: the newer wins. Two states can share one `updated_at` (two changes in one
 *   millisecond): then a list read wins over an event's snapshot (`|2` over `|1|`: the read shows the state
 *   after every change of that instant), a later list read over an earlier one, and of two events the later
 *   one (`created_at`, then id), never the one that happened to arrive last;
 * - a deletion (a `*.deleted` event): `<deleted at>|3|`, above any copy of that moment or before; a row a
 *   full walk found vanished keeps its copy's rank, so a later read that sees it again brings it back;
 * - a record without `updated_at` from an event: `0|<fields set>|<hash>`, so a copy with more fields set (a
 *   checkout that has come back) replaces an earlier one, and the same copy twice changes nothing;
 * - a customer reduced to `{object, id}` (a key without customers:read): the empty rank, below everything.
 */
export function copyRank(record: Record<string, unknown>, json: string, source: CopySource): string {
  if (isReduced(record)) return '';
  const updatedAt = isoOrNull(record.updated_at);
  if (updatedAt) {
    return source === 'list'
      ? `${updatedAt}|2`
      : `${updatedAt}|1|${isoOrNull(source.createdAt) ?? ''}|${source.eventId}`;
  }
  const set = Object.values(record).filter((value) => value !== null && value !== undefined).length;
  return `0|${String(set).padStart(4, '0')}|${hash(json)}`;
}

/**
 * The rank of a deletion at `at` (a `*.deleted` event). A row a full walk found vanished keeps the rank of
 * its last copy instead: only a deletion rank means "deleted by the API's word, until a newer copy comes".
 */
export function deletionRank(at: string): string {
  return `${isoOrNull(at) ?? at}|3|`;
}

/** A SQL `LIKE` pattern that matches deletion ranks and no copy's rank. */
export const DELETION_RANK_LIKE = '%|3|';

/** `{object, id}` and nothing else: what a key without customers:read sees of a customer. */
export function isReduced(record: Record<string, unknown>): boolean {
  const keys = Object.keys(record);
  return keys.length <= 2 && keys.every((key) => key === 'object' || key === 'id');
}

/** A timestamp in one fixed form (milliseconds, Z), so text comparison is time order; null when not one. */
export function isoOrNull(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** JSON with object keys sorted at every level: the same record always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
