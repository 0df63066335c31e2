import { createHash } from 'node:crypto';

/** Where a copy came from: a list read (the record as it is now) or an event (a snapshot at its time). */
export type CopySource = 'list' | { readonly eventId: string; readonly createdAt: string };

/** The rank of a copy of a record (`sync_version`): only a higher rank replaces a row, whatever the arrival order. */
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

/** The rank of a deletion at `at`; a row a full walk found vanished keeps its last copy's rank instead. */
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
