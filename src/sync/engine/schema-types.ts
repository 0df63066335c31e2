// The shapes of src/generated/sync-schema.ts (written by scripts/generator/sync-schema.ts).

/** A column's type, independent of the database. */
export type SyncColumnType = 'integer' | 'real' | 'text' | 'boolean' | 'timestamp' | 'date' | 'json';

/** A typed column of a table: a field of the record copied out of its JSON. */
export interface SyncColumn {
  readonly name: string;
  readonly type: SyncColumnType;
}

/** A child table: one row per element of the parent's array field. */
export interface SyncChildTable {
  readonly table: string;
  readonly field: string;
  readonly columns: readonly SyncColumn[];
}

/** A record table: the list operation that fills it and how its rows are compared. */
export interface SyncTable {
  /** The records' `object` value. */
  readonly table: string;
  /** The list operation id; null for a table events alone fill. */
  readonly operation: string | null;
  /** Key columns after `shop`. */
  readonly key: readonly string[];
  /** The record has `updated_at`. */
  readonly versioned: boolean;
  /** The list takes `updated_since`. */
  readonly incremental: boolean;
  /** The typed columns (every documented scalar field). */
  readonly columns: readonly SyncColumn[];
  readonly children: readonly SyncChildTable[];
}

/** Where an event's `data.object` goes. */
export interface SyncEventRoute {
  readonly table: string;
  /** A `{object, id, deleted: true}` payload: the row gets `deleted_at`. */
  readonly deletes: boolean;
  /** Fields the event adds to the record, left out of the stored copy. */
  readonly omit: readonly string[];
  /** Fields carrying another table's record, stored there as well. */
  readonly nested: readonly { readonly field: string; readonly table: string }[];
}

/** One schema version's statements in both dialects. */
export interface SyncMigration {
  readonly version: number;
  readonly sqlite: readonly string[];
  readonly postgres: readonly string[];
}
