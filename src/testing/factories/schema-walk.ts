// Reading the generated zod/mini schemas as data: the field a dotted path names, and a sample value of a
// schema. Used by buildEvent/buildRecord and by the CLI's `trigger --override`.
import { ENUM_LISTS } from '../../generated/enum-lists.js';
import * as schemas from '../../generated/schemas.js';
import { isOpenEnum } from '../../internal/schema-helpers.js';

/** The part of a zod schema's definition the walk reads. */
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  innerType?: Schema;
  element?: Schema;
  options?: Schema[];
  values?: unknown[];
  format?: string;
  getter?: () => Schema;
  in?: Schema;
}

/** A zod/mini schema as the walk sees it. */
export interface Schema {
  readonly _zod: { readonly def: Def };
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
}

/** Wrappers that do not change what a path points at. */
function unwrap(schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; depth < 20; depth++) {
    const def = current._zod.def;
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) {
      current = def.innerType;
    } else if (def.type === 'lazy' && def.getter) current = def.getter();
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
  return current;
}

/** The schema of the field at `path` (object keys, array indexes), or a reason it has none. */
export function fieldAt(schema: Schema, path: readonly string[]): { schema: Schema } | { problem: string } {
  let current = schema;
  for (const [index, key] of path.entries()) {
    const def = unwrap(current)._zod.def;
    const where = path.slice(0, index).join('.') || 'the payload';
    if (def.type === 'object' && def.shape) {
      const field = def.shape[key];
      if (!field) {
        const known = Object.keys(def.shape).join(', ');
        return { problem: `${where} has no field ${JSON.stringify(key)} (it has ${known})` };
      }
      current = field;
    } else if (def.type === 'array' && def.element) {
      if (!/^\d+$/.test(key))
        return { problem: `${where} is a list: name an item by its index, e.g. ${where}.0` };
      current = def.element;
    } else {
      return { problem: `${where} is a ${def.type}, it has no fields` };
    }
  }
  return { schema: current };
}

/** A dotted path split into keys; `data.object.` in front is dropped (overrides are of the payload). */
export function splitPath(path: string): string[] {
  const keys = path.replace(/^data\.object\./, '').split('.');
  return keys.some((key) => key === '') ? [] : keys;
}

/**
 * The value `raw` means for the field: JSON when the field takes what it parses to (`3`, `true`, `null`,
 * `{"a":1}`), else the string itself. Null with the schema's reason when neither fits.
 */
export function coerce(field: Schema, raw: string): { value: unknown } | { problem: string } {
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = JSON.parse(raw);
  } catch {
    isJson = false;
  }
  if (isJson && field.safeParse(parsed).success) return { value: parsed };
  if (field.safeParse(raw).success) return { value: raw };
  return { problem: `must be ${describe(field)}, got ${raw}` };
}

/** The first problem of `value` against `schema`, as `path: message`, or null. */
export function schemaProblem(schema: Schema, value: unknown): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error!.issues[0]!;
  const where = issue.path.map(String).join('.');
  if (where === '') return `(the payload): ${JSON.stringify(value)} is not ${describe(schema)}`;
  return `${where}: ${issue.message}`;
}

/** What a field takes, in words: `a whole number`, `an ISO-8601 time`, `null or a string`. */
export function describe(schema: Schema): string {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
      return describe(def.innerType!);
    case 'nullable':
      return `null or ${describe(def.innerType!)}`;
    case 'literal':
      return JSON.stringify(def.values![0]);
    case 'number':
      return def.format === 'safeint' ? 'a whole number' : 'a number';
    case 'string':
      return def.format === 'datetime'
        ? 'an ISO-8601 time'
        : def.format === 'date'
          ? 'a date (YYYY-MM-DD)'
          : 'a string';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    default:
      return `a ${def.type}`;
  }
}

/** The known values of an open-enum field of a record schema (`status` of RangeReservationSchema), if any. */
export function knownValuesOf(schema: Schema, field: string): readonly string[] | undefined {
  return knownValues(nameOf(schema), field);
}

/** Sets `value` at `path` in `target`, filling a missing or null object or list item on the way with a sample. */
export function setAt(
  target: Record<string, unknown>,
  schema: Schema,
  path: readonly string[],
  value: unknown,
): void {
  let node: Record<string, unknown> | unknown[] = target;
  let nodeSchema = schema;
  for (const [index, key] of path.entries()) {
    const found = fieldAt(nodeSchema, [key]);
    if (!('schema' in found)) throw new Error(found.problem);
    if (index === path.length - 1) {
      (node as Record<string, unknown>)[key] = value;
      return;
    }
    let next = (node as Record<string, unknown>)[key];
    if (typeof next !== 'object' || next === null) {
      next = sampleOf(unwrap(found.schema), key, new Set(), 0);
      (node as Record<string, unknown>)[key] = next;
    }
    node = next as Record<string, unknown>;
    nodeSchema = found.schema;
  }
}

const names = new Map<Schema, string>();
function nameOf(schema: Schema): string | undefined {
  if (names.size === 0) {
    for (const [name, value] of Object.entries(schemas)) {
      if (name.endsWith('Schema') && typeof value === 'object' && value !== null && '_zod' in value) {
        names.set(value as unknown as Schema, name.slice(0, -'Schema'.length));
      }
    }
  }
  return names.get(schema);
}

/** `RangeReservation` + `status` -> RANGE_RESERVATION_STATUSES (or the longest prefix's list, for an extended record). */
function knownValues(record: string | undefined, field: string): readonly string[] | undefined {
  if (!record) return undefined;
  const owner = record.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  const plural = /(s|x|ch|sh)$/.test(field) ? `${field}es` : `${field}s`;
  const suffix = `_${plural.toUpperCase()}`;
  let best: readonly string[] | undefined;
  let bestLength = -1;
  for (const [name, values] of Object.entries(ENUM_LISTS)) {
    if (!name.endsWith(suffix) || !Array.isArray(values)) continue;
    const prefix = name.slice(0, -suffix.length);
    if (owner.startsWith(prefix) && prefix.length > bestLength) [best, bestLength] = [values, prefix.length];
  }
  return best;
}

const SAMPLE_TIME = '2026-10-01T15:00:00.000Z';
const WORDS: Record<string, string> = {
  first_name: 'Dana',
  last_name: 'Reyes',
  name: 'Sample',
  email: 'dana.reyes@example.com',
  phone: '+12085550100',
  sku: 'SAMPLE-SKU-1',
  number: 'S-0001',
  currency: 'usd',
};

/**
 * A value the schema accepts, built from it: literals as they are, numbers 1 (cents 2500), timestamps
 * 2026-10-01T15:00:00Z, open enums their first known value, nullable fields null, optional fields left
 * out, lists with one item. Deterministic, so a test's expectations hold run after run.
 */
export function sampleOf(
  schema: Schema,
  field: string,
  seen: Set<Schema>,
  depth: number,
  owner?: string,
): unknown {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
      return sampleOf(def.innerType!, field, seen, depth, owner);
    case 'nullable':
      return null;
    case 'lazy':
      return sampleOf(def.getter!(), field, seen, depth, owner);
    case 'pipe':
      return sampleOf(def.in!, field, seen, depth, owner);
    case 'literal':
      return def.values![0];
    case 'boolean':
      return false;
    case 'number':
      return field.endsWith('_cents') ? 2500 : 1;
    case 'string': {
      if (def.format === 'datetime') return SAMPLE_TIME;
      if (def.format === 'date') return SAMPLE_TIME.slice(0, 10);
      if (isOpenEnum(schema)) {
        const values = knownValues(owner, field);
        if (values?.[0]) return values[0];
      }
      if (field.endsWith('_url') || field === 'url')
        return `https://shop.example/${field.replace(/_url$/, '')}`;
      return WORDS[field] ?? `sample ${field.replace(/_/g, ' ')}`;
    }
    case 'array':
      return depth > 6 || seen.has(def.element!)
        ? []
        : [sampleOf(def.element!, field, seen, depth + 1, owner)];
    case 'union':
      return sampleOf(def.options![0]!, field, seen, depth, owner);
    case 'object': {
      if (depth > 6 || seen.has(schema)) return {};
      const inner = new Set(seen).add(schema);
      const name = nameOf(schema) ?? owner;
      const result: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(def.shape ?? {})) {
        if (value._zod.def.type === 'optional') continue;
        result[key] = sampleOf(value, key, inner, depth + 1, name);
      }
      return result;
    }
    default:
      return null;
  }
}
