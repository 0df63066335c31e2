import { randomUUID } from 'node:crypto';
import { SYNC_MIGRATIONS, SYNC_TABLES } from '../../generated/sync-schema.js';
import { type SqlExecutor, type SyncDatabase, SyncDatabaseError } from './database.js';
import type { SyncMigration, SyncTable } from './schema-types.js';
import { type CopySource, canonicalJson, copyRank, deletionRank, isoOrNull } from './versions.js';

export type { CopySource } from './versions.js';

/** A stream's saved position (the `sync_checkpoints` row). */
export interface StreamCheckpoint {
  /** `updated_since` of the next walk (null: from the beginning). */
  readonly since: string | null;
  /** The cursor of the page a walk under way reads next (null: no walk under way). */
  readonly cursor: string | null;
  /** `updated_since` of the walk under way. */
  readonly walkSince: string | null;
  /** The server's time, at the latest, when the walk under way began. */
  readonly walkStartedAt: string | null;
  readonly rows: number;
  readonly completedAt: string | null;
}

const BATCH = 100;

/**
 * Upgrades the database to the SDK's schema: runs, in order, each migration it has not run, each in its own
 * transaction with its version row. Concurrent starts on Postgres wait on an advisory lock; a database from
 * a newer SDK is refused rather than written with old rules.
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

/** One shop's rows: every read and write of the engine goes through here, scoped to `shop`. */
export class SyncStore {
  readonly #sql = new Map<string, string>();

  constructor(
    readonly db: SyncDatabase,
    readonly shop: string,
  ) {}

  /**
   * Writes `records` into `table` by the reference's rules (see versions.ts): a row is replaced only by a
   * copy of a higher rank, a list read of a record without `updated_at` replaces a changed row, a deleted
   * row stays deleted unless a newer copy comes. Child rows follow their parent. Resolves with the rows
   * written.
   */
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
      const rows = batch.map((record) => this.#row(table, record, source, now));
      const sql = this.#upsertSql(table, rows.length, source === 'list' && !table.versioned);
      const changed = await tx.all<Record<string, unknown>>(sql, rows.flat());
      written += changed.length;
      if (table.children.length > 0 && changed.length > 0) {
        const keys = new Set(changed.map((row) => String(row[table.key[0]!])));
        await this.#writeChildren(
          tx,
          table,
          batch.filter((record) => keys.has(String(record[table.key[0]!]))),
        );
      }
    }
    return written;
  }

  /** Marks a row deleted at `at` (an event's `created_at`); a row not yet there is kept as a tombstone. */
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
    return tx.run(sql, [this.shop, ...keys, canonicalJson(record), rank, now, isoOrNull(at) ?? now]);
  }

  /** Sets `synced_at` of the rows a full walk saw, so the walk's end can tell which ones vanished. */
  async touch(tx: SqlExecutor, table: SyncTable, records: readonly Record<string, unknown>[], now: string) {
    if (table.key.length !== 1 || records.length === 0) return;
    const key = table.key[0]!;
    for (let start = 0; start < records.length; start += 500) {
      const ids = records.slice(start, start + 500).map((record) => record[key]);
      await tx.run(
        `UPDATE ${q(table.table)} SET "synced_at" = ? WHERE "shop" = ? AND ${q(key)} IN (${ids.map(() => '?').join(', ')})`,
        [now, this.shop, ...ids],
      );
    }
  }

  /** After a full walk begun at `walkStart`: rows it did not see are gone from the API (deleted_at). */
  async markVanished(tx: SqlExecutor, table: SyncTable, walkStart: string, now: string): Promise<number> {
    if (table.key.length !== 1) return 0;
    return tx.run(
      `UPDATE ${q(table.table)} SET "deleted_at" = ?, "sync_version" = ? WHERE "shop" = ? AND "synced_at" < ? AND "deleted_at" IS NULL`,
      [now, deletionRank(now), this.shop, walkStart],
    );
  }

  /** The saved position of `stream`, or null when it has none yet. */
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
      rows: Number(row.rows ?? 0),
      completedAt: text(row.completed_at),
    };
  }

  /** Saves the position of `stream` (inserted, or replacing the one there). */
  async saveCheckpoint(tx: SqlExecutor, stream: string, checkpoint: StreamCheckpoint, now: string) {
    await tx.run(
      'INSERT INTO "sync_checkpoints" ("shop", "stream", "since", "cursor", "walk_since", "walk_started_at", "rows", "updated_at", "completed_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("shop", "stream") DO UPDATE SET "since" = excluded."since", "cursor" = excluded."cursor", "walk_since" = excluded."walk_since", "walk_started_at" = excluded."walk_started_at", "rows" = excluded."rows", "updated_at" = excluded."updated_at", "completed_at" = excluded."completed_at"',
      [
        this.shop,
        stream,
        checkpoint.since,
        checkpoint.cursor,
        checkpoint.walkSince,
        checkpoint.walkStartedAt,
        checkpoint.rows,
        now,
        checkpoint.completedAt,
      ],
    );
  }

  /** Starts a `sync_runs` row; resolves with its id. */
  async startRun(kind: string): Promise<string> {
    const id = randomUUID();
    await this.db.run(
      'INSERT INTO "sync_runs" ("shop", "id", "kind", "status", "started_at", "rows_written", "rows_repaired", "errors") VALUES (?, ?, ?, ?, ?, 0, 0, 0)',
      [this.shop, id, kind, 'running', new Date().toISOString()],
    );
    return id;
  }

  /** Ends the `sync_runs` row `id` with its counts: `failed` when `error` is set, else `finished`. */
  async finishRun(
    id: string,
    result: { rowsWritten: number; rowsRepaired: number; errors: number; error?: string | null },
  ): Promise<void> {
    await this.db.run(
      'UPDATE "sync_runs" SET "status" = ?, "finished_at" = ?, "rows_written" = ?, "rows_repaired" = ?, "errors" = ?, "error" = ? WHERE "shop" = ? AND "id" = ?',
      [
        result.error ? 'failed' : 'finished',
        new Date().toISOString(),
        result.rowsWritten,
        result.rowsRepaired,
        result.errors,
        result.error ?? null,
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
    return rows.map((row) =>
      typeof row.record === 'string' ? JSON.parse(row.record) : (row.record as Record<string, unknown>),
    );
  }

  #row(table: SyncTable, record: Record<string, unknown>, source: CopySource, now: string): unknown[] {
    const json = canonicalJson(record);
    const values: unknown[] = [this.shop];
    for (const key of table.key) values.push(record[key]);
    for (const column of table.columns) {
      if (table.key.includes(column.name)) continue;
      values.push(columnValue(column.type, record[column.name]));
    }
    values.push(json, copyRank(record, json, source), now, null);
    return values;
  }

  #upsertSql(table: SyncTable, count: number, authoritative: boolean): string {
    const id = `${table.table}:${count}:${authoritative}`;
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
    ];
    const row = `(${columns.map(() => '?').join(', ')})`;
    const target = q(table.table);
    const set = [...valueColumns, 'record', 'sync_version', 'synced_at', 'deleted_at']
      .map((name) => `${q(name)} = excluded.${q(name)}`)
      .join(', ');
    // A list read of a record without updated_at is the record as it is now: it replaces a changed row (a
    // deletion stays). Everything else is replaced only by a copy of a higher rank.
    const when = authoritative
      ? `${target}."deleted_at" IS NULL AND excluded."record" <> ${target}."record"`
      : `(${target}."sync_version" IS NULL OR excluded."sync_version" > ${target}."sync_version" OR (excluded."sync_version" = ${target}."sync_version" AND excluded."sync_version" <> '')) AND excluded."record" <> ${target}."record"`;
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
        items.forEach((item: Record<string, unknown>, position) => {
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
      return typeof value === 'string' ? value : null;
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
