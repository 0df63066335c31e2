import { randomUUID } from 'node:crypto';
import { SYNC_MIGRATIONS, SYNC_TABLES } from '../../generated/sync-schema.js';
import { type SqlExecutor, type SyncDatabase, SyncDatabaseError } from './database.js';
import type { SyncMigration, SyncTable } from './schema-types.js';
import {
  type CopySource,
  canonicalJson,
  copyRank,
  DELETION_RANK_LIKE,
  deletionRank,
  isoOrNull,
} from './versions.js';

export type { CopySource } from './versions.js';

/** A stream's saved position (the `sync_checkpoints` row). */
export interface StreamCheckpoint {
  /** `updated_since` of the next walk. */
  readonly since: string | null;
  /** The next page's cursor of a walk under way. */
  readonly cursor: string | null;
  /** `updated_since` of the walk under way. */
  readonly walkSince: string | null;
  /** The server's time, at the latest, when the walk began. */
  readonly walkStartedAt: string | null;
  /** The generation of a full walk under way. */
  readonly walkGeneration?: number | null;
  readonly rows: number;
  readonly completedAt: string | null;
}

const BATCH = 100;

/** A record the database refused; the rest of its batch is written and the stream goes on. */
export interface RejectedRecord {
  readonly table: string;
  /** The record's key, e.g. `id=5`. */
  readonly key: string;
  /** The database's message. */
  readonly message: string;
}

/** Options of a {@link SyncStore}. */
export interface SyncStoreOptions {
  /** Told of each refused record, then left out; without it a refusal throws. */
  readonly onRejected?: (rejected: RejectedRecord) => void;
}

/**
 * Runs each migration not yet run, in order, each in its own transaction; concurrent starts on Postgres wait
 * on an advisory lock, and a database from a newer SDK is refused.
 */
export async function migrate(
  db: SyncDatabase,
  migrations: readonly SyncMigration[] = SYNC_MIGRATIONS,
): Promise<{ from: number; to: number }> {
  await db.run(
    'CREATE TABLE IF NOT EXISTS "sync_migrations" ("version" INTEGER PRIMARY KEY, "applied_at" TEXT NOT NULL)',
  );
  const current = async (tx: SqlExecutor) => {
    const rows = await tx.all<{ version: number | string | null }>(
      'SELECT MAX("version") AS "version" FROM "sync_migrations"',
    );
    return Number(rows[0]?.version ?? 0);
  };
  const from = await current(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (from > latest) {
    throw new SyncDatabaseError(
      `the database's sync schema is version ${from}, newer than this SDK's ${latest}: upgrade shop-mgmt`,
    );
  }
  for (const migration of migrations) {
    await db.transaction(async (tx) => {
      if (db.dialect === 'postgres') await tx.all('SELECT pg_advisory_xact_lock(7318001)');
      if ((await current(tx)) >= migration.version) return;
      for (const statement of db.dialect === 'postgres' ? migration.postgres : migration.sqlite) {
        await tx.run(statement);
      }
      await tx.run('INSERT INTO "sync_migrations" ("version", "applied_at") VALUES (?, ?)', [
        migration.version,
        new Date().toISOString(),
      ]);
    });
  }
  return { from, to: Math.max(from, latest) };
}

/** The record table named `name`. */
export function tableNamed(name: string): SyncTable {
  const table = SYNC_TABLES.find((entry) => entry.table === name);
  if (!table) throw new SyncDatabaseError(`no sync table ${name}`);
  return table;
}

const q = (name: string) => `"${name}"`;

/** One shop's rows: every read and write of the engine, scoped to `shop`. */
export class SyncStore {
  #sql = new Map<string, string>();

  readonly #onRejected: ((rejected: RejectedRecord) => void) | undefined;

  constructor(
    readonly db: SyncDatabase,
    readonly shop: string,
    options: SyncStoreOptions = {},
  ) {
    this.#onRejected = options.onRejected;
  }

  /** This store with other options (built statements shared). */
  withOptions(options: SyncStoreOptions): SyncStore {
    const store = new SyncStore(this.db, this.shop, options);
    store.#sql = this.#sql;
    return store;
  }

  /** Writes `records` by the rules of versions.ts (a higher rank replaces); resolves with the rows written. */
  async upsert(
    tx: SqlExecutor,
    table: SyncTable,
    records: readonly Record<string, unknown>[],
    source: CopySource,
    now: string,
  ): Promise<number> {
    let written = 0;
    for (let start = 0; start < records.length; start += BATCH) {
      const batch = dedupeByKey(
        table,
        records.slice(start, start + BATCH).filter((record) => table.key.every((key) => record[key] != null)),
        source,
      );
      if (batch.length === 0) continue;
      if (!this.#onRejected) {
        written += await this.#writeBatch(tx, table, batch, source, now);
        continue;
      }
      try {
        written += await savepoint(tx, () => this.#writeBatch(tx, table, batch, source, now));
      } catch (error) {
        if (!refused(error)) throw error;
        // One refused record must not stop the others: each is written on its own, refusals reported.
        for (const record of batch) {
          try {
            written += await savepoint(tx, () => this.#writeBatch(tx, table, [record], source, now));
          } catch (inner) {
            if (!refused(inner)) throw inner;
            this.#reject(table, record, inner);
          }
        }
      }
    }
    return written;
  }

  async #writeBatch(
    tx: SqlExecutor,
    table: SyncTable,
    batch: readonly Record<string, unknown>[],
    source: CopySource,
    now: string,
  ): Promise<number> {
    const rows = batch.map((record) => this.#row(table, record, source, now));
    const sql = this.#upsertSql(table, rows.length, source === 'list' && !table.versioned, source === 'list');
    const changed = await tx.all<Record<string, unknown>>(sql, rows.flat());
    if (changed.length === 0) return 0;
    if (table.children.length > 0) {
      const keys = new Set(changed.map((row) => String(row[table.key[0]!])));
      await this.#writeChildren(
        tx,
        table,
        batch.filter((record) => keys.has(String(record[table.key[0]!]))),
      );
    }
    if (table.table === STOCK.levels) {
      await this.#refreshEmbeddedStock(tx, [...new Set(changed.map((row) => Number(row.product_id)))], now);
    } else if (table.table === STOCK.parent) {
      await this.#refreshEmbeddedStock(tx, [...new Set(changed.map((row) => Number(row.id)))], now);
    }
    return changed.length;
  }

  #reject(table: SyncTable, record: Record<string, unknown>, error: unknown): void {
    this.#onRejected?.({
      table: table.table,
      key: table.key.map((name) => `${name}=${String(record[name])}`).join(','),
      message: sanitizeText(error instanceof Error ? error.message : String(error)),
    });
  }

  /** Sets each product's embedded stock (`include=inventory`) to the newest level held per location. */
  async #refreshEmbeddedStock(tx: SqlExecutor, products: readonly number[], now: string): Promise<void> {
    if (products.length === 0) return;
    const marks = products.map(() => '?').join(', ');
    const held = await tx.all<{ id: unknown; record: unknown }>(
      `SELECT "id", "record" FROM ${q(STOCK.parent)} WHERE "shop" = ? AND "id" IN (${marks}) AND "deleted_at" IS NULL`,
      [this.shop, ...products],
    );
    if (held.length === 0) return;
    const levels = await tx.all<{ product_id: unknown; record: unknown }>(
      `SELECT "product_id", "record" FROM ${q(STOCK.levels)} WHERE "shop" = ? AND "product_id" IN (${marks}) AND "deleted_at" IS NULL ORDER BY "location_id"`,
      [this.shop, ...products],
    );
    for (const row of held) {
      const product = this.#parse(row.record);
      const embedded = product[STOCK.field];
      if (!Array.isArray(embedded)) continue;
      const inventory = [...embedded] as unknown[];
      let changed = false;
      for (const level of levels) {
        if (Number(level.product_id) !== Number(row.id)) continue;
        const fresh = this.#parse(level.record);
        const at = inventory.findIndex(
          (entry) => isObject(entry) && Number(entry.location_id) === Number(fresh.location_id),
        );
        const current = at < 0 ? undefined : (inventory[at] as Record<string, unknown>);
        if (current && (isoOrNull(fresh.updated_at) ?? '') <= (isoOrNull(current.updated_at) ?? '')) continue;
        if (at < 0) inventory.push(fresh);
        else inventory[at] = fresh;
        changed = true;
      }
      if (!changed) continue;
      await tx.run(
        `UPDATE ${q(STOCK.parent)} SET "record" = ?, "synced_at" = ? WHERE "shop" = ? AND "id" = ?`,
        [this.#recordText({ ...product, [STOCK.field]: inventory }), now, this.shop, row.id],
      );
    }
  }

  /** Marks a row deleted at `at`; a row not yet there is kept as a tombstone. */
  async tombstone(
    tx: SqlExecutor,
    table: SyncTable,
    record: Record<string, unknown>,
    at: string,
    now: string,
  ): Promise<number> {
    const keys = table.key.map((key) => record[key]);
    if (keys.some((value) => value === undefined || value === null)) return 0;
    const rank = deletionRank(at);
    const columns = ['shop', ...table.key, 'record', 'sync_version', 'synced_at', 'deleted_at'];
    const sql = `INSERT INTO ${q(table.table)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (${['shop', ...table.key].map(q).join(', ')}) DO UPDATE SET "deleted_at" = excluded."deleted_at", "sync_version" = excluded."sync_version", "synced_at" = excluded."synced_at" WHERE ${q(table.table)}."sync_version" IS NULL OR excluded."sync_version" > ${q(table.table)}."sync_version"`;
    const params = [this.shop, ...keys, this.#recordText(record), rank, now, isoOrNull(at) ?? now];
    if (!this.#onRejected) return tx.run(sql, params);
    try {
      return await savepoint(tx, () => tx.run(sql, params));
    } catch (error) {
      if (!refused(error)) throw error;
      this.#reject(table, record, error);
      return 0;
    }
  }

  /** A new full walk's generation: above every generation its rows carry, so no earlier walk's rows count. */
  async nextWalk(tx: SqlExecutor, table: SyncTable): Promise<number> {
    const rows = await tx.all<{ walk: unknown }>(
      `SELECT MAX("sync_walk") AS "walk" FROM ${q(table.table)} WHERE "shop" = ?`,
      [this.shop],
    );
    return Number(rows[0]?.walk ?? 0) + 1;
  }

  /** Stamps the rows a full walk saw with its generation. */
  async touch(
    tx: SqlExecutor,
    table: SyncTable,
    records: readonly Record<string, unknown>[],
    generation: number,
    now: string,
  ) {
    if (table.key.length !== 1 || records.length === 0) return;
    const key = table.key[0]!;
    for (let start = 0; start < records.length; start += 500) {
      const ids = records
        .slice(start, start + 500)
        .map((record) => record[key])
        .filter((id) => id !== undefined && id !== null);
      if (ids.length === 0) continue;
      await tx.run(
        `UPDATE ${q(table.table)} SET "sync_walk" = ?, "synced_at" = ? WHERE "shop" = ? AND ${q(key)} IN (${ids.map(() => '?').join(', ')})`,
        [generation, now, this.shop, ...ids],
      );
    }
  }

  /** Marks deleted the rows an ended full walk did not see (no clock compared). */
  async markVanished(tx: SqlExecutor, table: SyncTable, generation: number, now: string): Promise<number> {
    if (table.key.length !== 1) return 0;
    const vanished = await tx.run(
      `UPDATE ${q(table.table)} SET "deleted_at" = ?, "synced_at" = ? WHERE "shop" = ? AND "sync_walk" < ? AND "deleted_at" IS NULL`,
      [now, now, this.shop, generation],
    );
    await tx.run(`UPDATE ${q(table.table)} SET "sync_walk" = ? WHERE "shop" = ? AND "sync_walk" IS NULL`, [
      generation,
      this.shop,
    ]);
    return vanished;
  }

  /** The saved position of `stream`. */
  async checkpoint(stream: string, tx: SqlExecutor = this.db): Promise<StreamCheckpoint | null> {
    const rows = await tx.all<Record<string, unknown>>(
      'SELECT * FROM "sync_checkpoints" WHERE "shop" = ? AND "stream" = ?',
      [this.shop, stream],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      since: text(row.since),
      cursor: text(row.cursor),
      walkSince: text(row.walk_since),
      walkStartedAt: text(row.walk_started_at),
      walkGeneration:
        row.walk_generation === null || row.walk_generation === undefined
          ? null
          : Number(row.walk_generation),
      rows: Number(row.rows ?? 0),
      completedAt: text(row.completed_at),
    };
  }

  /** Saves the position of `stream`. */
  async saveCheckpoint(tx: SqlExecutor, stream: string, checkpoint: StreamCheckpoint, now: string) {
    await tx.run(
      'INSERT INTO "sync_checkpoints" ("shop", "stream", "since", "cursor", "walk_since", "walk_started_at", "walk_generation", "rows", "updated_at", "completed_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("shop", "stream") DO UPDATE SET "since" = excluded."since", "cursor" = excluded."cursor", "walk_since" = excluded."walk_since", "walk_started_at" = excluded."walk_started_at", "walk_generation" = excluded."walk_generation", "rows" = excluded."rows", "updated_at" = excluded."updated_at", "completed_at" = excluded."completed_at"',
      [
        this.shop,
        stream,
        checkpoint.since,
        checkpoint.cursor,
        checkpoint.walkSince,
        checkpoint.walkStartedAt,
        checkpoint.walkGeneration ?? null,
        checkpoint.rows,
        now,
        checkpoint.completedAt,
      ],
    );
  }

  /** Starts a `sync_runs` row; resolves with its id. */
  async startRun(kind: string, tx: SqlExecutor = this.db): Promise<string> {
    const id = randomUUID();
    await tx.run(
      'INSERT INTO "sync_runs" ("shop", "id", "kind", "status", "started_at", "rows_written", "rows_repaired", "errors") VALUES (?, ?, ?, ?, ?, 0, 0, 0)',
      [this.shop, id, kind, 'running', new Date().toISOString()],
    );
    return id;
  }

  /** Ends the `sync_runs` row `id`: `failed` when `error` is set, else `finished`. */
  async finishRun(
    id: string,
    result: { rowsWritten: number; rowsRepaired: number; errors: number; error?: string | null },
    tx: SqlExecutor = this.db,
  ): Promise<void> {
    await tx.run(
      'UPDATE "sync_runs" SET "status" = ?, "finished_at" = ?, "rows_written" = ?, "rows_repaired" = ?, "errors" = ?, "error" = ? WHERE "shop" = ? AND "id" = ?',
      [
        result.error ? 'failed' : 'finished',
        new Date().toISOString(),
        result.rowsWritten,
        result.rowsRepaired,
        result.errors,
        result.error ? sanitizeText(result.error) : null,
        this.shop,
        id,
      ],
    );
  }

  /** The stored records of `table` (deleted ones left out), parsed. */
  async records(table: SyncTable): Promise<Record<string, unknown>[]> {
    const rows = await this.db.all<{ record: unknown }>(
      `SELECT "record" FROM ${q(table.table)} WHERE "shop" = ? AND "deleted_at" IS NULL`,
      [this.shop],
    );
    return rows.map((row) => this.#parse(row.record));
  }

  /** A stored `record` as the API sent it (Postgres JSONB text unescaped, see {@link escapeText}). */
  #parse(value: unknown): Record<string, unknown> {
    if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
    return unescapeValue(value) as Record<string, unknown>;
  }

  /** A record's text for the `record` column. */
  #recordText(record: Record<string, unknown>, json = canonicalJson(record)): string {
    if (this.db.dialect !== 'postgres' || !MAY_NEED_ESCAPE.test(json)) return json;
    return canonicalJson(escapeValue(record));
  }

  #row(table: SyncTable, record: Record<string, unknown>, source: CopySource, now: string): unknown[] {
    const json = canonicalJson(record);
    const values: unknown[] = [this.shop];
    for (const key of table.key) values.push(record[key]);
    for (const column of table.columns) {
      if (table.key.includes(column.name)) continue;
      values.push(columnValue(column.type, record[column.name]));
    }
    values.push(this.#recordText(record, json), copyRank(record, json, source), now, null, null);
    return values;
  }

  #upsertSql(table: SyncTable, count: number, authoritative: boolean, list: boolean): string {
    const id = `${table.table}:${count}:${authoritative}:${list}`;
    let sql = this.#sql.get(id);
    if (sql) return sql;
    const valueColumns = table.columns
      .filter((column) => !table.key.includes(column.name))
      .map((c) => c.name);
    const columns = [
      'shop',
      ...table.key,
      ...valueColumns,
      'record',
      'sync_version',
      'synced_at',
      'deleted_at',
      'sync_walk',
    ];
    const row = `(${columns.map(() => '?').join(', ')})`;
    const target = q(table.table);
    const set = [...valueColumns, 'record', 'sync_version', 'synced_at', 'deleted_at', 'sync_walk']
      .map((name) => `${q(name)} = excluded.${q(name)}`)
      .join(', ');
    // A list read of a record without updated_at replaces a changed row; otherwise only a higher rank does.
    // A vanished row keeps its last rank, so a list read that sees it again brings it back.
    const ranked = authoritative
      ? `${target}."deleted_at" IS NULL AND excluded."record" <> ${target}."record"`
      : `(${target}."sync_version" IS NULL OR excluded."sync_version" > ${target}."sync_version" OR (excluded."sync_version" = ${target}."sync_version" AND excluded."sync_version" <> '')) AND excluded."record" <> ${target}."record"`;
    const when = list
      ? `(${ranked}) OR (${target}."deleted_at" IS NOT NULL AND ${target}."sync_version" NOT LIKE '${DELETION_RANK_LIKE}')`
      : ranked;
    sql = `INSERT INTO ${target} (${columns.map(q).join(', ')}) VALUES ${Array.from({ length: count }, () => row).join(', ')} ON CONFLICT (${['shop', ...table.key].map(q).join(', ')}) DO UPDATE SET ${set} WHERE ${when} RETURNING ${table.key.map(q).join(', ')}`;
    this.#sql.set(id, sql);
    return sql;
  }

  async #writeChildren(tx: SqlExecutor, table: SyncTable, parents: readonly Record<string, unknown>[]) {
    const parentKey = table.key[0]!;
    const parentColumn = `${table.table}_${parentKey}`;
    const ids = parents.map((record) => record[parentKey]);
    for (const child of table.children) {
      await tx.run(
        `DELETE FROM ${q(child.table)} WHERE "shop" = ? AND ${q(parentColumn)} IN (${ids.map(() => '?').join(', ')})`,
        [this.shop, ...ids],
      );
      const columns = ['shop', parentColumn, 'position', ...child.columns.map((column) => column.name)];
      const rows: unknown[][] = [];
      for (const parent of parents) {
        const items = parent[child.field];
        if (!Array.isArray(items)) continue;
        items.forEach((item: Record<string, unknown> | null, position) => {
          rows.push([
            this.shop,
            parent[parentKey],
            position,
            ...child.columns.map((column) => columnValue(column.type, item?.[column.name])),
          ]);
        });
      }
      for (let start = 0; start < rows.length; start += BATCH) {
        const batch = rows.slice(start, start + BATCH);
        const row = `(${columns.map(() => '?').join(', ')})`;
        await tx.run(
          `INSERT INTO ${q(child.table)} (${columns.map(q).join(', ')}) VALUES ${batch.map(() => row).join(', ')}`,
          batch.flat(),
        );
      }
    }
  }
}

/** Where a product's stock is embedded (`include=inventory`) and the table of the levels it repeats. */
const STOCK = { parent: 'product', field: 'inventory', levels: 'inventory_level' } as const;

/** Runs `work` in a savepoint: rolled back when it throws (Postgres would abort the transaction), else released. */
async function savepoint<T>(tx: SqlExecutor, work: () => Promise<T>): Promise<T> {
  await tx.run('SAVEPOINT "sync_record"');
  let result: T;
  try {
    result = await work();
  } catch (error) {
    try {
      await tx.run('ROLLBACK TO SAVEPOINT "sync_record"');
      await tx.run('RELEASE SAVEPOINT "sync_record"');
    } catch {
      // The connection is gone: the original error says why.
    }
    throw error;
  }
  await tx.run('RELEASE SAVEPOINT "sync_record"');
  return result;
}

/** The database refused the data (not the connection or the statement). */
function refused(error: unknown): boolean {
  if (!isObject(error)) return false;
  const code = error.code;
  if (typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code)) return true;
  if (typeof code === 'string' && /^SQLITE_(CONSTRAINT|TOOBIG|MISMATCH|RANGE)/.test(code)) return true;
  const errcode = error.errcode;
  return typeof errcode === 'number' && [18, 19, 20, 25].includes(errcode & 0xff);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** NUL, U+E000 (the escape itself) and surrogates not in a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the characters this finds.
const ODD = /\u0000|\ue000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** JSON text that may hold one of them (JSON.stringify writes NUL and lone surrogates as `\u` escapes). */
const MAY_NEED_ESCAPE = /\\u0000|\\ud[89a-f]|\ue000/i;
const ESCAPE = '\ue000';

/** A string Postgres JSONB can hold, reversibly: NUL and lone surrogates escaped behind U+E000. */
export function escapeText(text: string): string {
  return text.replace(ODD, (char) =>
    char === ESCAPE
      ? ESCAPE + ESCAPE
      : char === '\u0000'
        ? `${ESCAPE}0`
        : `${ESCAPE}u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The string {@link escapeText} was given. */
export function unescapeText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(/\ue000(\ue000|0|u[0-9a-f]{4})/g, (_, code: string) =>
    code === ESCAPE
      ? ESCAPE
      : code === '0'
        ? '\u0000'
        : String.fromCharCode(Number.parseInt(code.slice(1), 16)),
  );
}

function escapeValue(value: unknown): unknown {
  if (typeof value === 'string') return escapeText(value);
  if (Array.isArray(value)) return value.map(escapeValue);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[escapeText(key)] = escapeValue(inner);
  return out;
}

function unescapeValue(value: unknown): unknown {
  if (typeof value === 'string') return unescapeText(value);
  if (Array.isArray(value)) return value.map(unescapeValue);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[unescapeText(key)] = unescapeValue(inner);
  return out;
}

/** Text for a typed TEXT column: NUL and surrogates not in a pair become U+FFFD (the record keeps them). */
export function sanitizeText(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the characters this replaces.
    /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    '\ufffd',
  );
}

/** A field's value for its typed column; a value of another type than documented is left to the JSON. */
function columnValue(type: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : null;
    case 'real':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'timestamp':
      return isoOrNull(value);
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
    default:
      return typeof value === 'string' ? sanitizeText(value) : null;
  }
}

/** One copy per key in a batch (a multi-row upsert may not touch a row twice): the highest rank. */
function dedupeByKey(
  table: SyncTable,
  records: readonly Record<string, unknown>[],
  source: CopySource,
): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const record of records) {
    const key = table.key.map((name) => String(record[name])).join('\u0000');
    const held = byKey.get(key);
    // Within one page or event the later copy is the later state when the ranks are equal.
    if (
      !held ||
      copyRank(record, canonicalJson(record), source) >= copyRank(held, canonicalJson(held), source)
    ) {
      byKey.set(key, record);
    }
  }
  return [...byKey.values()];
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}
