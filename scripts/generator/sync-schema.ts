/**
 * The sync engine's tables from the spec (src/sync/engine): one table per record type a list endpoint returns,
 * named by its `object` value, plus the customer (events only), the child tables partners query, and the
 * engine's own bookkeeping. Migrations are versioned and forward only: `spec/sync-schema.json` holds every
 * version's changes; a run that finds the spec asking for more (a new list endpoint, a new field) appends a
 * version with only what is new (CREATE TABLE, ADD COLUMN). Nothing is ever dropped or retyped: a column the
 * spec no longer names stays, and its record's JSON keeps the data.
 */
import { readFile } from 'node:fs/promises';
import type { OperationModel } from './model.js';
import { words } from './names.js';
import { deref, type OpenApiDocument, refName, type SchemaObject } from './spec.js';
import { flattenAllOf, typeList } from './zod-emitter.js';

/** A column's type, independent of the database. */
export type ColumnType = 'integer' | 'real' | 'text' | 'boolean' | 'timestamp' | 'date' | 'json';

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
}

/** A table as the migrations build it. */
export interface TableDef {
  readonly name: string;
  /** Key columns after `shop`. */
  readonly key: readonly ColumnDef[];
  readonly columns: readonly ColumnDef[];
  /** Indexes: lists of column names. */
  readonly indexes: readonly (readonly string[])[];
}

/** One forward step. */
export type Change =
  | { readonly createTable: TableDef }
  | { readonly addColumn: { readonly table: string; readonly column: ColumnDef } }
  | { readonly createIndex: { readonly table: string; readonly columns: readonly string[] } };

export interface SchemaVersion {
  readonly version: number;
  readonly changes: readonly Change[];
}

export interface SchemaHistory {
  readonly versions: readonly SchemaVersion[];
}

/** A record table the engine fills, with what it needs to fill it. */
export interface RecordTable {
  readonly table: string;
  /** The list operation that backfills it (null: filled by events only). */
  readonly operation: string | null;
  readonly key: readonly string[];
  /** The record has `updated_at`: newer-or-equal replaces; otherwise it is inserted once. */
  readonly versioned: boolean;
  /** The list takes `updated_since`. */
  readonly incremental: boolean;
  readonly columns: readonly ColumnDef[];
  readonly children: readonly ChildTable[];
}

export interface ChildTable {
  readonly table: string;
  /** The parent's array field. */
  readonly field: string;
  readonly columns: readonly ColumnDef[];
}

/** How an event reaches the tables. */
export interface EventRoute {
  readonly table: string;
  /** The payload is `{object, id, deleted: true}`. */
  readonly deletes: boolean;
  /** Fields the event adds to the record (left out of the stored copy). */
  readonly omit: readonly string[];
  /** Fields holding another table's record (stored there too). */
  readonly nested: readonly { readonly field: string; readonly table: string }[];
}

/** Records without an `id`: their key. */
const KEYS: Record<string, readonly string[]> = {
  InventoryLevel: ['product_id', 'location_id'],
  StoreCredit: ['customer_id'],
};

/** Arrays partners query by their fields: parent schema -> field. */
const CHILDREN: Record<string, string> = { RangeReservation: 'lines', Membership: 'members' };

/** Record types with no list endpoint that still get a table: the events carry them. */
const EVENT_ONLY = ['Customer'];

const ENGINE_TABLES: TableDef[] = [
  {
    name: 'sync_checkpoints',
    key: [{ name: 'stream', type: 'text' }],
    columns: [
      { name: 'since', type: 'text' },
      { name: 'cursor', type: 'text' },
      { name: 'walk_since', type: 'text' },
      { name: 'walk_started_at', type: 'timestamp' },
      { name: 'rows', type: 'integer' },
      { name: 'updated_at', type: 'timestamp' },
      { name: 'completed_at', type: 'timestamp' },
      // The generation of the full walk under way (src/sync/engine/store.ts); null for updated_since walks.
      { name: 'walk_generation', type: 'integer' },
    ],
    indexes: [],
  },
  {
    name: 'sync_runs',
    key: [{ name: 'id', type: 'text' }],
    columns: [
      { name: 'kind', type: 'text' },
      { name: 'status', type: 'text' },
      { name: 'started_at', type: 'timestamp' },
      { name: 'finished_at', type: 'timestamp' },
      { name: 'rows_written', type: 'integer' },
      { name: 'rows_repaired', type: 'integer' },
      { name: 'errors', type: 'integer' },
      { name: 'error', type: 'text' },
    ],
    indexes: [['started_at']],
  },
];

/** The record tables and event routes the spec defines. */
export function syncModel(
  doc: OpenApiDocument,
  operations: readonly OperationModel[],
): { tables: RecordTable[]; events: Record<string, EventRoute> } {
  const schemas = doc.components?.schemas ?? {};
  const bySchema = new Map<string, RecordTable>();
  for (const op of operations) {
    if (op.method !== 'GET' || op.pagination !== 'cursor' || op.result.kind !== 'schema') continue;
    const name = op.result.name;
    if (name === 'Event' || !schemas[name]) continue;
    if (bySchema.has(name)) throw new Error(`sync: ${name} is listed by two operations`);
    const incremental = op.query.some((param) => param.name === 'updated_since');
    bySchema.set(name, recordTable(doc, name, op.id, incremental));
  }
  // Records only events bring (a spec without them, such as a test fixture, has no such table).
  for (const name of EVENT_ONLY) if (schemas[name]) bySchema.set(name, recordTable(doc, name, null, false));
  const tableOf = new Map([...bySchema].map(([schema, table]) => [schema, table.table]));

  const events: Record<string, EventRoute> = {};
  for (const [type, item] of Object.entries(doc.webhooks ?? {})) {
    const body = deref(doc, item.post?.requestBody ?? {}).content?.['application/json']?.schema;
    const payload = body && payloadOf(doc, body);
    if (!payload?.$ref) continue;
    const name = refName(payload.$ref);
    if (name === 'DeletedObject') {
      const table = tableOf.get(pascalOfType(type));
      if (table) events[type] = { table, deletes: true, omit: [], nested: [] };
      continue;
    }
    const route = eventRoute(doc, name, tableOf);
    if (route) events[type] = route;
  }
  return { tables: [...bySchema.values()], events };
}

/** `product.deleted` -> `Product`. */
function pascalOfType(type: string): string {
  const [object] = type.split('.');
  return words(object ?? '')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

function payloadOf(doc: OpenApiDocument, schema: SchemaObject): SchemaObject | undefined {
  const resolved = deref(doc, schema);
  const found = resolved.properties?.data?.properties?.object;
  if (found) return found;
  for (const part of resolved.allOf ?? []) {
    if (part.$ref && refName(part.$ref) === 'Event') continue;
    const inner = payloadOf(doc, part);
    if (inner) return inner;
  }
  return undefined;
}

/** A payload that is a record, or `allOf: [record, {extra fields}]`. */
function eventRoute(
  doc: OpenApiDocument,
  name: string,
  tableOf: ReadonlyMap<string, string>,
): EventRoute | null {
  const direct = tableOf.get(name);
  if (direct) return { table: direct, deletes: false, omit: [], nested: [] };
  const schema = doc.components?.schemas?.[name];
  const base = schema?.allOf?.find((part) => part.$ref && tableOf.has(refName(part.$ref)));
  if (!schema || !base?.$ref) return null;
  const omit: string[] = [];
  const nested: { field: string; table: string }[] = [];
  for (const part of schema.allOf ?? []) {
    if (part === base) continue;
    for (const [field, property] of Object.entries(deref(doc, part).properties ?? {})) {
      omit.push(field);
      const table = property.$ref ? tableOf.get(refName(property.$ref)) : undefined;
      if (table) nested.push({ field, table });
    }
  }
  return { table: tableOf.get(refName(base.$ref))!, deletes: false, omit, nested };
}

function recordTable(
  doc: OpenApiDocument,
  name: string,
  operation: string | null,
  incremental: boolean,
): RecordTable {
  const schema = flattenAllOf(doc, deref(doc, doc.components!.schemas![name]!));
  const properties = schema.properties ?? {};
  const objectValue = properties.object?.const;
  const table = typeof objectValue === 'string' ? objectValue : words(name).join('_');
  const keyNames = KEYS[name] ?? ['id'];
  for (const key of keyNames) {
    if (!properties[key]) throw new Error(`sync: ${name} has no ${key} for its key`);
  }
  const columns: ColumnDef[] = [];
  for (const [field, property] of Object.entries(properties)) {
    if (field === 'object') continue;
    const type = columnType(doc, property);
    if (type) columns.push({ name: field, type });
  }
  const children: ChildTable[] = [];
  const childField = CHILDREN[name];
  if (childField) {
    const items = properties[childField]?.items;
    if (!items) throw new Error(`sync: ${name}.${childField} is not an array`);
    const itemSchema = flattenAllOf(doc, deref(doc, items));
    const childColumns: ColumnDef[] = [];
    for (const [field, property] of Object.entries(itemSchema.properties ?? {})) {
      const type = field === 'object' ? null : columnType(doc, property);
      if (type) childColumns.push({ name: field, type });
    }
    children.push({ table: `${table}_${singular(childField)}`, field: childField, columns: childColumns });
  }
  return {
    table,
    operation,
    key: keyNames,
    versioned: Boolean(properties.updated_at),
    incremental,
    columns,
    children,
  };
}

function singular(field: string): string {
  return field.endsWith('s') ? field.slice(0, -1) : field;
}

/** A scalar's column type; null for objects, arrays and values of no documented type (kept in `record`). */
function columnType(doc: OpenApiDocument, property: SchemaObject): ColumnType | null {
  const resolved = deref(doc, property);
  const types = typeList(resolved).filter((type) => type !== 'null');
  const type = types.length === 1 ? types[0] : resolved.const !== undefined ? typeof resolved.const : null;
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'real';
  if (type === 'boolean') return 'boolean';
  if (type === 'string') {
    if (resolved.format === 'date-time') return 'timestamp';
    if (resolved.format === 'date') return 'date';
    return 'text';
  }
  return null;
}

/** The tables the current spec asks for, engine tables first. */
export function desiredTables(tables: readonly RecordTable[]): TableDef[] {
  const out: TableDef[] = [...ENGINE_TABLES];
  for (const table of tables) {
    const keys = new Set(table.key);
    const key = table.key.map((name) => table.columns.find((column) => column.name === name)!);
    out.push({
      name: table.table,
      key,
      columns: [
        ...table.columns.filter((column) => !keys.has(column.name)),
        { name: 'record', type: 'json' },
        // The copy's rank: a row is replaced only by a higher one (src/sync/engine/versions.ts).
        { name: 'sync_version', type: 'text' },
        { name: 'synced_at', type: 'timestamp' },
        { name: 'deleted_at', type: 'timestamp' },
        // The generation of the last full walk that saw the row (null: written since by an event): a full
        // walk marks vanished the rows of an older generation, never by the local clock.
        { name: 'sync_walk', type: 'integer' },
      ],
      indexes: table.versioned ? [['updated_at']] : [],
    });
    for (const child of table.children) {
      out.push({
        name: child.table,
        key: [
          { name: `${table.table}_${table.key[0]}`, type: 'integer' },
          { name: 'position', type: 'integer' },
        ],
        columns: child.columns,
        indexes: child.columns.some((column) => column.name === 'customer_id') ? [['customer_id']] : [],
      });
    }
  }
  return out;
}

/** The schema after every version of `history`. */
function applied(history: SchemaHistory): Map<string, TableDef> {
  const tables = new Map<string, TableDef>();
  for (const version of history.versions) {
    for (const change of version.changes) {
      if ('createTable' in change) tables.set(change.createTable.name, change.createTable);
      else if ('addColumn' in change) {
        const table = tables.get(change.addColumn.table)!;
        tables.set(table.name, { ...table, columns: [...table.columns, change.addColumn.column] });
      } else {
        const table = tables.get(change.createIndex.table)!;
        tables.set(table.name, { ...table, indexes: [...table.indexes, change.createIndex.columns] });
      }
    }
  }
  return tables;
}

/** `history` with one more version holding what `desired` adds, or as it is when nothing is new. */
export function nextHistory(history: SchemaHistory, desired: readonly TableDef[]): SchemaHistory {
  const have = applied(history);
  const changes: Change[] = [];
  for (const table of desired) {
    const existing = have.get(table.name);
    if (!existing) {
      changes.push({ createTable: table });
      continue;
    }
    const names = new Set([...existing.key, ...existing.columns].map((column) => column.name));
    for (const column of table.columns) {
      if (!names.has(column.name)) changes.push({ addColumn: { table: table.name, column } });
    }
    const indexes = new Set(existing.indexes.map((index) => index.join(',')));
    for (const index of table.indexes) {
      if (!indexes.has(index.join(','))) changes.push({ createIndex: { table: table.name, columns: index } });
    }
  }
  if (changes.length === 0) return history;
  const version = (history.versions.at(-1)?.version ?? 0) + 1;
  return { versions: [...history.versions, { version, changes }] };
}

const SQL_TYPES: Record<'sqlite' | 'postgres', Record<ColumnType, string>> = {
  sqlite: {
    integer: 'INTEGER',
    real: 'REAL',
    text: 'TEXT',
    boolean: 'INTEGER',
    timestamp: 'TEXT',
    date: 'TEXT',
    json: 'TEXT',
  },
  postgres: {
    integer: 'BIGINT',
    real: 'DOUBLE PRECISION',
    text: 'TEXT',
    boolean: 'BOOLEAN',
    timestamp: 'TIMESTAMPTZ',
    date: 'DATE',
    json: 'JSONB',
  },
};

/** The SQL of one version's changes in one dialect. */
export function migrationSql(version: SchemaVersion, dialect: 'sqlite' | 'postgres'): string[] {
  const types = SQL_TYPES[dialect];
  const column = (def: ColumnDef, notNull = false) =>
    `"${def.name}" ${types[def.type]}${notNull ? ' NOT NULL' : ''}`;
  const index = (table: string, columns: readonly string[]) =>
    `CREATE INDEX "${table}_${columns.join('_')}" ON "${table}" ("shop", ${columns.map((name) => `"${name}"`).join(', ')})`;
  const statements: string[] = [];
  for (const change of version.changes) {
    if ('createTable' in change) {
      const table = change.createTable;
      const keys = ['shop', ...table.key.map((key) => key.name)].map((name) => `"${name}"`).join(', ');
      const parts = [
        '"shop" TEXT NOT NULL',
        ...table.key.map((key) => column(key, true)),
        ...table.columns.map((def) => column(def, def.name === 'record' || def.name === 'synced_at')),
        `PRIMARY KEY (${keys})`,
      ];
      statements.push(`CREATE TABLE "${table.name}" (${parts.join(', ')})`);
      for (const columns of table.indexes) statements.push(index(table.name, columns));
    } else if ('addColumn' in change) {
      statements.push(
        `ALTER TABLE "${change.addColumn.table}" ADD COLUMN ${column(change.addColumn.column)}`,
      );
    } else {
      statements.push(index(change.createIndex.table, change.createIndex.columns));
    }
  }
  return statements;
}

export async function readHistory(file: string): Promise<SchemaHistory> {
  const text = await readFile(file, 'utf8').catch(() => null);
  return text === null ? { versions: [] } : (JSON.parse(text) as SchemaHistory);
}

/** The history file's text (then formatted by Biome, like every generated file). */
export function historyText(history: SchemaHistory): string {
  const versions = history.versions.map(
    (version) =>
      `    {\n      "version": ${version.version},\n      "changes": [\n${version.changes
        .map((change) => `        ${JSON.stringify(change)}`)
        .join(',\n')}\n      ]\n    }`,
  );
  return `{\n  "versions": [\n${versions.join(',\n')}\n  ]\n}\n`;
}

/** src/generated/sync-schema.ts: the tables, the event routes and every migration in both dialects. */
export function emitSyncSchema(
  tables: readonly RecordTable[],
  events: Readonly<Record<string, EventRoute>>,
  history: SchemaHistory,
): string {
  const migrations = history.versions.map((version) => ({
    version: version.version,
    sqlite: migrationSql(version, 'sqlite'),
    postgres: migrationSql(version, 'postgres'),
  }));
  return `// GENERATED by scripts/generate.ts from spec/openapi.yaml and spec/sync-schema.json. DO NOT EDIT.
import type { SyncEventRoute, SyncMigration, SyncTable } from '../sync/engine/schema-types.js';

/** The record tables of the sync engine: one per record type a list endpoint returns, and the customer. */
export const SYNC_TABLES: readonly SyncTable[] = ${JSON.stringify(tables, null, 2)};

/** Event type -> the table its \`data.object\` goes to. */
export const SYNC_EVENTS: Readonly<Record<string, SyncEventRoute>> = ${JSON.stringify(events, null, 2)};

/** Every schema version, oldest first; a database is upgraded by running the ones it has not run. */
export const SYNC_MIGRATIONS: readonly SyncMigration[] = ${JSON.stringify(migrations, null, 2)};
`;
}
