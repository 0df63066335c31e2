import type { FieldReader } from './fields.js';

/** limit and cursor of a list request (reference section 4: limit 1 to 200, default 50). */
export interface PageParams {
  readonly limit: number;
  /** Sort key of the last record of the previous page; null for the first page. */
  readonly after: number | null;
}

const CURSOR_PREFIX = 'c1.';

/** Opaque to callers: a versioned, base64url-encoded position. */
export function encodeCursor(after: number): string {
  return (
    CURSOR_PREFIX + btoa(JSON.stringify({ after })).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  );
}

function decodeCursor(cursor: string): number | null {
  if (!cursor.startsWith(CURSOR_PREFIX)) return null;
  try {
    const base64 = cursor.slice(CURSOR_PREFIX.length).replace(/-/g, '+').replace(/_/g, '/');
    const decoded: unknown = JSON.parse(atob(base64));
    const after = (decoded as { after?: unknown } | null)?.after;
    return typeof after === 'number' && Number.isSafeInteger(after) ? after : null;
  } catch {
    return null;
  }
}

/** Reads limit and cursor; a bad one is reported on the reader (400 VALIDATION_ERROR at `done()`). */
export function readPageParams(reader: FieldReader): PageParams {
  const limit = reader.integer('limit', { min: 1, max: 200 }) ?? 50;
  const cursor = reader.string('cursor');
  if (cursor === undefined) return { limit, after: null };
  const after = decodeCursor(cursor);
  if (after === null) reader.fail('cursor', 'is not a cursor this API issued');
  return { limit, after };
}
