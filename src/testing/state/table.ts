/** A record the sandbox stores: every API record has an integer id. */
export interface Identified {
  id: number;
}

/**
 * One kind of record, kept in id order (lists are ascending by id, reference section 4). Ids are handed
 * out by the table so seeding and API creation never collide.
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
    return row;
  }

  /** Removes a record (its id is never handed out again). */
  delete(id: number): boolean {
    return this.rows.delete(id);
  }

  get(id: number): T | undefined {
    return this.rows.get(id);
  }

  /** Every record, ascending by id. */
  all(): T[] {
    return [...this.rows.values()];
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
}
