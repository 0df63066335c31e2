// Answers cut to what a model needs: every record keeps its own scalar fields; a nested record longer than
// a line becomes its object and id; long arrays are shortened; a list's records lose their empty fields. The agent asks with `full: true` for the rest.

/** A nested object whose JSON is at most this long is kept whole. */
const SMALL_OBJECT_CHARS = 160;
/** Items of a nested array kept. */
const NESTED_ITEMS = 3;
/** Records of a list kept (a list call asks for 20 a page). */
const LIST_ITEMS = 50;

/** A record, or a list answer (`{ data: [...] }`), trimmed; `trimmed` says whether anything was left out. */
export function trimAnswer(value: unknown): { value: unknown; trimmed: boolean } {
  const state = { trimmed: false };
  if (isObject(value) && Array.isArray(value.data)) {
    const data = value.data.slice(0, LIST_ITEMS).map((item) => trimRecord(item, state, true));
    if (value.data.length > LIST_ITEMS) state.trimmed = true;
    return { value: { ...value, data }, trimmed: state.trimmed };
  }
  return { value: trimRecord(value, state), trimmed: state.trimmed };
}

/** One record; in a list (`listed`) its empty fields are left out and its nested lists are counted. */
function trimRecord(value: unknown, state: { trimmed: boolean }, listed = false): unknown {
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (listed && field === null) continue;
    if (listed && Array.isArray(field) && field.some(isObject)) {
      state.trimmed = true;
      out[key] = `${field.length} item${field.length === 1 ? '' : 's'}`;
    } else if (Array.isArray(field)) {
      const kept = field.slice(0, NESTED_ITEMS).map((item) => summary(item, state));
      if (field.length > NESTED_ITEMS) {
        state.trimmed = true;
        kept.push(`… ${field.length - NESTED_ITEMS} more`);
      }
      out[key] = kept;
    } else {
      out[key] = summary(field, state);
    }
  }
  return out;
}

/** A nested value: kept when short, else its object and id. */
function summary(value: unknown, state: { trimmed: boolean }): unknown {
  if (!isObject(value) || JSON.stringify(value).length <= SMALL_OBJECT_CHARS) return value;
  state.trimmed = true;
  return 'id' in value ? { object: value.object, id: value.id } : '{…}';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
