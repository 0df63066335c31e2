// Answers cut to what a model needs: scalars kept, nested records reduced to their id, long arrays shortened.
// The agent asks again with `full: true` for the whole record.

/** Items of an array kept in a trimmed answer. */
const ARRAY_ITEMS = 5;
/** A nested object whose JSON is at most this long is kept whole. */
const SMALL_OBJECT_CHARS = 160;

/** A record or list, trimmed (see the module comment); `trimmed` says whether anything was left out. */
export function trimAnswer(value: unknown): { value: unknown; trimmed: boolean } {
  const state = { trimmed: false };
  return { value: trimValue(value, 0, state), trimmed: state.trimmed };
}

function trimValue(value: unknown, depth: number, state: { trimmed: boolean }): unknown {
  if (Array.isArray(value)) {
    const kept = value.slice(0, ARRAY_ITEMS).map((item) => trimValue(item, depth + 1, state));
    if (value.length > ARRAY_ITEMS) {
      state.trimmed = true;
      kept.push(`… ${value.length - ARRAY_ITEMS} more`);
    }
    return kept;
  }
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (depth >= 2 && JSON.stringify(record).length > SMALL_OBJECT_CHARS) {
    state.trimmed = true;
    return 'id' in record ? { object: record.object, id: record.id } : '{…}';
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(record)) out[key] = trimValue(field, depth + 1, state);
  return out;
}
