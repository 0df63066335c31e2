/**
 * @internal A JSON form of the sandbox's in-memory objects that keeps what plain JSON loses: Maps, Sets,
 * Dates, `undefined`, and objects reachable twice (stored once, referred to by number after). Functions
 * and the objects in `shared` (the clock, registries held by several parts) are left out, so restoring
 * keeps the fresh sandbox's own.
 */
export type Encoded = null | boolean | number | string | EncodedNode;

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
  const ids = new Map<object, number>();
  const walk = (value: unknown): Encoded | typeof OMIT => {
    if (value === undefined) return { $t: 'undef' };
    if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (typeof value !== 'object' || value instanceof Promise || shared.has(value)) return OMIT;
    const seen = ids.get(value);
    if (seen !== undefined) return { $ref: seen };
    const $id = ids.size + 1;
    ids.set(value, $id);
    if (value instanceof Date) return { $id, $t: 'date', v: value.getTime() };
    if (value instanceof Map) {
      const entries = [...value].map(([key, item]) => [walk(key), walk(item)]);
      return { $id, $t: 'map', v: entries.filter((entry) => !entry.includes(OMIT)) };
    }
    if (value instanceof Set)
      return { $id, $t: 'set', v: [...value].map(walk).filter((item) => item !== OMIT) };
    if (Array.isArray(value)) {
      const items = value.map(walk);
      // An array holding functions (listeners, scheduled jobs) belongs to the live process.
      return items.includes(OMIT) ? OMIT : { $id, $t: 'arr', v: items };
    }
    const fields: Record<string, Encoded> = {};
    for (const [key, item] of Object.entries(value)) {
      const encoded = walk(item);
      if (encoded !== OMIT) fields[key] = encoded;
    }
    return { $id, $t: 'obj', v: fields };
  };
  const encoded = walk(root);
  return encoded === OMIT ? null : encoded;
}

/** Thrown for a node this codec did not write. */
export class DecodeError extends Error {}

/** Decodes what `encode` wrote into plain objects, Maps, Sets and Dates. */
export function decode(encoded: unknown): unknown {
  const nodes = new Map<number, unknown>();
  const walk = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
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
