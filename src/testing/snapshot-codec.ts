/**
 * JSON that keeps Maps, Sets, Dates, `undefined` and shared references; functions and `shared` objects are
 * left out, so restoring keeps the fresh sandbox's own.
 */
export type Encoded = null | boolean | number | string | EncodedNode | Encoded[] | { [key: string]: Encoded };

interface EncodedNode {
  /** The node's number, for `$ref`s. */
  $id?: number;
  $ref?: number;
  $t?: 'obj' | 'arr' | 'map' | 'set' | 'date' | 'undef';
  v?: unknown;
}

const OMIT = Symbol('omit');

/** Encodes `root`, leaving out functions, promises and the `shared` objects. */
export function encode(root: unknown, shared: ReadonlySet<object>): Encoded {
  const repeated = objectsSeenTwice(root, shared);
  const ids = new Map<object, number>();
  const walk = (value: unknown): Encoded | typeof OMIT => {
    if (value === undefined) return { $t: 'undef' };
    if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (typeof value !== 'object' || value instanceof Promise || shared.has(value)) return OMIT;
    const seen = ids.get(value);
    if (seen !== undefined) return { $ref: seen };
    // Only objects reached twice carry a number: most records are reached once, and the file stays small.
    let $id: number | undefined;
    if (repeated.has(value)) {
      $id = ids.size + 1;
      ids.set(value, $id);
    }
    const node = (type: EncodedNode['$t'], v: unknown): EncodedNode =>
      $id === undefined ? { $t: type, v } : { $id, $t: type, v };
    if (value instanceof Date) return node('date', value.getTime());
    if (value instanceof Map) {
      const entries = [...value].map(([key, item]) => [walk(key), walk(item)]);
      return node(
        'map',
        entries.filter((entry) => !entry.includes(OMIT)),
      );
    }
    if (value instanceof Set)
      return node(
        'set',
        [...value].map(walk).filter((item) => item !== OMIT),
      );
    if (Array.isArray(value)) {
      const items = value.map(walk);
      // An array holding functions (listeners, scheduled jobs) belongs to the live process.
      if (items.includes(OMIT)) return OMIT;
      return $id === undefined ? (items as Encoded[]) : node('arr', items);
    }
    const fields: Record<string, Encoded> = {};
    for (const [key, item] of Object.entries(value)) {
      const encoded = walk(item);
      if (encoded !== OMIT) fields[key] = encoded;
    }
    // A plain JSON object unless it needs a number or has a key that looks like a node's.
    const plain = $id === undefined && !Object.keys(fields).some((key) => key.startsWith('$'));
    return plain ? fields : node('obj', fields);
  };
  const encoded = walk(root);
  return encoded === OMIT ? null : encoded;
}

/** The objects `encode` will reach more than once (shared records, a Map's key object). */
function objectsSeenTwice(root: unknown, shared: ReadonlySet<object>): Set<object> {
  const seen = new Set<object>();
  const twice = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || value instanceof Promise || shared.has(value))
      continue;
    if (seen.has(value)) {
      twice.add(value);
      continue;
    }
    seen.add(value);
    if (value instanceof Date) continue;
    if (value instanceof Map) for (const [key, item] of value) stack.push(key, item);
    else if (value instanceof Set || Array.isArray(value)) for (const item of value) stack.push(item);
    else for (const item of Object.values(value)) stack.push(item);
  }
  return twice;
}

/** Thrown for a node this codec did not write. */
export class DecodeError extends Error {}

/** Decodes what `encode` wrote into plain objects, Maps, Sets and Dates. */
export function decode(encoded: unknown): unknown {
  const nodes = new Map<number, unknown>();
  const walk = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(walk);
    if (!('$t' in value) && !('$ref' in value)) {
      const object: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) object[key] = walk(item);
      return object;
    }
    const node = value as EncodedNode;
    if (node.$ref !== undefined) {
      if (!nodes.has(node.$ref)) throw new DecodeError(`reference to unknown node ${node.$ref}`);
      return nodes.get(node.$ref);
    }
    const keep = <T>(made: T): T => {
      if (node.$id !== undefined) nodes.set(node.$id, made);
      return made;
    };
    switch (node.$t) {
      case 'undef':
        return undefined;
      case 'date':
        return keep(new Date(Number(node.v)));
      case 'map': {
        const map = keep(new Map());
        for (const [key, item] of list(node.v) as [unknown, unknown][]) map.set(walk(key), walk(item));
        return map;
      }
      case 'set': {
        const set = keep(new Set());
        for (const item of list(node.v)) set.add(walk(item));
        return set;
      }
      case 'arr': {
        const array = keep([] as unknown[]);
        for (const item of list(node.v)) array.push(walk(item));
        return array;
      }
      case 'obj': {
        if (typeof node.v !== 'object' || node.v === null)
          throw new DecodeError('object node without fields');
        const object = keep({} as Record<string, unknown>);
        for (const [key, item] of Object.entries(node.v)) object[key] = walk(item);
        return object;
      }
      default:
        throw new DecodeError(`unknown node type ${String(node.$t)}`);
    }
  };
  return walk(encoded);
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new DecodeError('expected a list');
  return value;
}

/**
 * Copies decoded fields onto a live object: a field holding a class instance or a plain object is filled
 * in place (so the instance keeps its prototype and the references others hold to it); any other field
 * is replaced. Fields the snapshot left out keep their live values.
 */
export function hydrate(target: object, decoded: unknown): void {
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    throw new DecodeError('expected an object to restore');
  }
  const live = target as Record<string, unknown>;
  for (const [key, value] of Object.entries(decoded)) {
    const current = live[key];
    if (fillable(current) && fillable(value)) hydrate(current, value);
    else live[key] = value;
  }
}

function fillable(value: unknown): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Map || value instanceof Set || value instanceof Date || Array.isArray(value))
  );
}
