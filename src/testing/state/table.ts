/** A record the sandbox stores: every API record has an integer id. */
export interface Identified {
  id: number;
}

/**
 * Counts the moments records may have changed in place (`touch`, each non-GET request, each clock job); a
 * table whose indexes were checked at an older count re-checks its rows before the next lookup.
 */
let writes = 0;

/** Records may have changed in place: every table re-checks its indexes before its next lookup. */
export function noteWrites(): void {
  writes++;
}

/**
 * How many writes have been noted so far: a value derived from records (a record's JSON text, see
 * http/json.ts) and stamped with this count is current while the count has not moved.
 */
export function writesNoted(): number {
  return writes;
}

/** Rows by the value of one field, each list ascending by id. */
interface EqualIndex<T> {
  readonly lists: Map<unknown, T[]>;
  /** The value each row is filed under. */
  readonly filed: Map<number, unknown>;
}

/** Rows by the time in one ISO date-time field, ascending by (time, id). */
interface TimeIndex<T> {
  readonly entries: { ms: number; row: T }[];
  /** The time each row is filed under, and the text it was read from. */
  readonly filed: Map<number, number>;
  readonly filedText: Map<number, unknown>;
}

/**
 * What a table derives from its rows: the rows in id order and the indexes. Kept off the table's own
 * fields, so a snapshot (snapshot-codec.ts) saves and restores only the rows; a restored table has a new
 * `rows` Map and rebuilds these on its next lookup.
 */
interface Derived<T> {
  readonly source: Map<number, T>;
  readonly ordered: T[];
  readonly equal: Map<string, EqualIndex<T>>;
  readonly times: Map<string, TimeIndex<T>>;
  readonly dirty: Set<T>;
  /** `writes` when the indexes were last checked against the rows. */
  checkedAt: number;
}

const derivedOf = new WeakMap<Table<Identified>, Derived<Identified>>();

/**
 * One kind of record in id order, the table handing out ids. Lists read it through `ordered()`, `equal()` (an
 * index per field, built on first use) and `changedSince()` (an index by time).
 */
export class Table<T extends Identified> {
  private readonly rows = new Map<number, T>();
  private lastId = 0;

  /** The next id this table will hand out. */
  nextId(): number {
    return this.lastId + 1;
  }

  /** Stores a record built from its new id. */
  insert(build: (id: number) => T): T {
    const row = build(++this.lastId);
    this.rows.set(row.id, row);
    const derived = this.derived(false);
    if (derived) {
      // Ids only grow, so the new row goes last; indexes file it as a change.
      derived.ordered.push(row);
      derived.dirty.add(row);
    }
    return row;
  }

  /** Removes a record (its id is never handed out again). */
  delete(id: number): boolean {
    const row = this.rows.get(id);
    if (!row) return false;
    this.rows.delete(id);
    const derived = this.derived(false);
    if (derived) {
      const at = lowerBound(derived.ordered, id, (item) => item.id);
      if (derived.ordered[at]?.id === id) derived.ordered.splice(at, 1);
      derived.dirty.delete(row);
      for (const index of derived.equal.values()) unfileEqual(index, row);
      for (const index of derived.times.values()) unfileTime(index, row);
    }
    return true;
  }

  get(id: number): T | undefined {
    return this.rows.get(id);
  }

  /** Every record, ascending by id (a copy). */
  all(): T[] {
    return [...this.rows.values()];
  }

  /** Every record, ascending by id: the table's own list, not a copy (do not change it). */
  ordered(): readonly T[] {
    return this.derived(true).ordered;
  }

  /** Records matching `predicate`, ascending by id. */
  filter(predicate: (row: T) => boolean): T[] {
    return this.all().filter(predicate);
  }

  find(predicate: (row: T) => boolean): T | undefined {
    for (const row of this.rows.values()) if (predicate(row)) return row;
    return undefined;
  }

  get size(): number {
    return this.rows.size;
  }

  /** The records whose `field` is `value` (`===`), ascending by id: the index's own list (do not change it). */
  equal(field: keyof T & string, value: unknown): readonly T[] {
    const derived = this.settled();
    let index = derived.equal.get(field);
    if (!index) {
      index = { lists: new Map(), filed: new Map() };
      for (const row of derived.ordered) fileEqual(index, row, row[field]);
      derived.equal.set(field, index);
    }
    return index.lists.get(value) ?? [];
  }

  /**
   * The records whose ISO date-time `field` is at or after `sinceMs`, in time order (not id order), and
   * how many there are. A field that does not parse files the record at time 0.
   */
  changedSince(field: keyof T & string, sinceMs: number): { readonly rows: T[]; readonly count: number } {
    const derived = this.settled();
    let index = derived.times.get(field);
    if (!index) {
      index = { entries: [], filed: new Map(), filedText: new Map() };
      for (const row of derived.ordered) {
        const ms = timeOf(row[field]);
        index.entries.push({ ms, row });
        index.filed.set(row.id, ms);
        index.filedText.set(row.id, row[field]);
      }
      index.entries.sort(byTime);
      derived.times.set(field, index);
    }
    const from = lowerBoundTime(index.entries, sinceMs, Number.NEGATIVE_INFINITY);
    const entries = index.entries;
    return {
      count: entries.length - from,
      get rows() {
        return entries.slice(from).map((entry) => entry.row);
      },
    };
  }

  /** The derived state, (re)built when missing or when the rows were replaced (a restored snapshot). */
  private derived(build: true): Derived<T>;
  private derived(build: false): Derived<T> | undefined;
  private derived(build: boolean): Derived<T> | undefined {
    const self = this as unknown as Table<Identified>;
    const current = derivedOf.get(self) as Derived<T> | undefined;
    if (current && current.source === this.rows) return current;
    if (!build) {
      if (current) derivedOf.delete(self);
      return undefined;
    }
    const ordered = [...this.rows.values()].sort((a, b) => a.id - b.id);
    const fresh: Derived<T> = {
      source: this.rows,
      ordered,
      equal: new Map(),
      times: new Map(),
      dirty: new Set(),
      checkedAt: writes,
    };
    derivedOf.set(self, fresh as unknown as Derived<Identified>);
    return fresh;
  }

  /** Whether `row` is filed under a value it no longer has in some index. */
  private moved(derived: Derived<T>, row: T): boolean {
    for (const [field, index] of derived.equal) {
      if (index.filed.get(row.id) !== row[field as keyof T]) return true;
    }
    for (const [field, index] of derived.times) {
      if (index.filedText.get(row.id) !== row[field as keyof T]) return true;
    }
    return false;
  }

  /** The derived state with every changed row re-filed. */
  private settled(): Derived<T> {
    const derived = this.derived(true);
    if (derived.checkedAt !== writes) {
      derived.checkedAt = writes;
      if (derived.equal.size > 0 || derived.times.size > 0) {
        for (const row of derived.ordered) if (this.moved(derived, row)) derived.dirty.add(row);
      }
    }
    if (derived.dirty.size === 0) return derived;
    for (const row of derived.dirty) {
      for (const [field, index] of derived.equal) {
        const value = row[field as keyof T];
        if (index.filed.has(row.id) && index.filed.get(row.id) === value) continue;
        unfileEqual(index, row);
        fileEqual(index, row, value);
      }
      for (const [field, index] of derived.times) {
        const text = row[field as keyof T];
        if (index.filedText.has(row.id) && index.filedText.get(row.id) === text) continue;
        const ms = timeOf(text);
        unfileTime(index, row);
        const at = lowerBoundTime(index.entries, ms, row.id);
        index.entries.splice(at, 0, { ms, row });
        index.filed.set(row.id, ms);
        index.filedText.set(row.id, text);
      }
    }
    derived.dirty.clear();
    return derived;
  }
}

function fileEqual<T extends Identified>(index: EqualIndex<T>, row: T, value: unknown): void {
  let list = index.lists.get(value);
  if (!list) {
    list = [];
    index.lists.set(value, list);
  }
  // Mostly appended (new rows have the largest id); a re-filed row goes to its id's place.
  if (list.length === 0 || list.at(-1)!.id < row.id) list.push(row);
  else
    list.splice(
      lowerBound(list, row.id, (item) => item.id),
      0,
      row,
    );
  index.filed.set(row.id, value);
}

function unfileEqual<T extends Identified>(index: EqualIndex<T>, row: T): void {
  if (!index.filed.has(row.id)) return;
  const value = index.filed.get(row.id);
  index.filed.delete(row.id);
  const list = index.lists.get(value);
  if (!list) return;
  const at = lowerBound(list, row.id, (item) => item.id);
  if (list[at]?.id === row.id) list.splice(at, 1);
  if (list.length === 0) index.lists.delete(value);
}

function unfileTime<T extends Identified>(index: TimeIndex<T>, row: T): void {
  const ms = index.filed.get(row.id);
  if (ms === undefined) return;
  index.filed.delete(row.id);
  index.filedText.delete(row.id);
  const at = lowerBoundTime(index.entries, ms, row.id);
  if (index.entries[at]?.row.id === row.id) index.entries.splice(at, 1);
}

function timeOf(value: unknown): number {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
}

function byTime<T extends Identified>(a: { ms: number; row: T }, b: { ms: number; row: T }): number {
  return a.ms - b.ms || a.row.id - b.row.id;
}

/** The first position in `entries` (sorted by time, then id) not before (ms, id). */
function lowerBoundTime<T extends Identified>(
  entries: readonly { ms: number; row: T }[],
  ms: number,
  id: number,
) {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const entry = entries[mid]!;
    if (entry.ms < ms || (entry.ms === ms && entry.row.id < id)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first position in `items` (ascending by `key`) whose key is at least `value`. */
export function lowerBound<T>(items: readonly T[], value: number, key: (item: T) => number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (key(items[mid]!) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
