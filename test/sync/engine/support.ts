// Helpers of the sync engine tests: real databases (a SQLite file; a database of its own on the test run's
// PostgreSQL server), a sandbox served on loopback, and the row-for-row comparison with the API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { ShopClient } from '../../../src/client.js';
import type { Operation } from '../../../src/core/api/operation.js';
import { operations } from '../../../src/generated/operations.js';
import { SYNC_TABLES } from '../../../src/generated/sync-schema.js';
import { openSyncDatabase, type SyncDatabase } from '../../../src/sync/engine/database.js';
import { SyncStore } from '../../../src/sync/engine/store.js';
import { canonicalJson } from '../../../src/sync/engine/versions.js';
import type { SandboxOptions } from '../../../src/testing/options.js';
import { createSandbox, type Sandbox } from '../../../src/testing/sandbox.js';

export const postgresUrl = inject('postgresUrl');

/** A fresh SQLite file path (and its folder's removal). */
export function sqliteFile(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'shop-sync-'));
  return { path: join(dir, 'shop.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

let databases = 0;

/** A new, empty database on the test run's PostgreSQL server: its URL, and its removal. */
export async function postgresDatabase(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (!postgresUrl) throw new Error('no PostgreSQL server in this run');
  const name = `sync_${process.pid}_${Date.now()}_${++databases}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    cleanup: async () => {
      const drop = new pg.Client({ connectionString: postgresUrl });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}

/** The databases a test runs against: SQLite always, Postgres when the setup started it. */
export const DIALECTS = [
  { name: 'sqlite', available: true },
  { name: 'postgres', available: Boolean(postgresUrl) },
] as const;

/** Opens a fresh database of `dialect`; `cleanup` closes and removes it. */
export async function freshDatabase(
  dialect: 'sqlite' | 'postgres',
): Promise<{ target: string; db: SyncDatabase; cleanup: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const file = sqliteFile();
    const db = await openSyncDatabase(file.path);
    return {
      target: file.path,
      db,
      cleanup: async () => {
        await db.close();
        file.cleanup();
      },
    };
  }
  const made = await postgresDatabase();
  const db = await openSyncDatabase(made.url);
  return {
    target: made.url,
    db,
    cleanup: async () => {
      await db.close();
      await made.cleanup();
    },
  };
}

/** A sandbox on loopback with its rate limit lifted, and a client with a full key. */
export async function servedSandbox(options: SandboxOptions = {}): Promise<{
  sandbox: Sandbox;
  url: string;
  client: ShopClient;
  close: () => Promise<void>;
}> {
  const sandbox = createSandbox({ rateLimits: { perMinute: 10_000_000, perDay: null }, ...options });
  const server = await sandbox.listen();
  const client = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: server.url, maxRetries: 0 });
  return { sandbox, url: server.url, client, close: () => server.close() };
}

const QUERY: Record<string, Record<string, unknown>> = {
  'range.sessions.list': { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' },
  'products.list': { include: 'inventory' },
};

export interface TableDifference {
  readonly table: string;
  readonly api: number;
  /** In the API, not in the database. */
  readonly lost: number;
  /** In both, with a different record. */
  readonly stale: number;
  /** In the database (not deleted), not in the API. */
  readonly extra: number;
}

/** Every table the API lists, compared row for row (the whole record) with the database's copy. */
export async function compareWithApi(
  client: ShopClient,
  db: SyncDatabase,
  shop: string,
): Promise<TableDifference[]> {
  const store = new SyncStore(db, shop);
  const out: TableDifference[] = [];
  for (const table of SYNC_TABLES) {
    if (!table.operation) continue;
    const operation = (operations as Record<string, Operation>)[table.operation]! as Operation & {
      readonly pagination: 'cursor';
    };
    const api = await client
      .list(operation, { query: { ...QUERY[table.operation], limit: 200 } })
      .toArray({ max: 1e7 });
    const key = (record: Record<string, unknown>) => table.key.map((name) => String(record[name])).join(':');
    const held = new Map((await store.records(table)).map((record) => [key(record), canonicalJson(record)]));
    let lost = 0;
    let stale = 0;
    for (const record of api as Record<string, unknown>[]) {
      const copy = held.get(key(record));
      if (copy === undefined) lost++;
      else if (copy !== canonicalJson(record)) {
        stale++;
        if (process.env.SYNC_DEBUG) console.log('STALE', table.table, copy, canonicalJson(record));
      }
      held.delete(key(record));
    }
    out.push({ table: table.table, api: api.length, lost, stale, extra: held.size });
  }
  return out;
}

/** Sums of a comparison. */
export function totals(differences: readonly TableDifference[]) {
  return differences.reduce(
    (sum, row) => ({
      api: sum.api + row.api,
      lost: sum.lost + row.lost,
      stale: sum.stale + row.stale,
      extra: sum.extra + row.extra,
    }),
    { api: 0, lost: 0, stale: 0, extra: 0 },
  );
}

let guests = 0;

/**
 * Changes the shop the way a day does: `count` lane bookings (each with a new guest, so customer.created
 * fires), then check-ins, cancellations and no-shows of some of them. Returns the reservations' ids.
 */
export async function churn(client: ShopClient, count: number, firstHour: number): Promise<number[]> {
  const base = Date.now() + 2 * 86_400_000;
  const hour = base - (base % 3_600_000);
  const ids: number[] = [];
  for (let index = 0; index < count; index++) {
    const starts = new Date(hour + (firstHour + index) * 3_600_000).toISOString();
    const ends = new Date(hour + (firstHour + index + 1) * 3_600_000).toISOString();
    const [free] = await client.range.availability.list({ starts_at: starts, ends_at: ends, party_size: 1 });
    if (!free) continue;
    const guest = ++guests;
    const booked = await client.range.reservations.create({
      resource_ids: [free.resource.id],
      starts_at: starts,
      ends_at: ends,
      party_size: 1,
      customer: {
        email: `storm${process.pid}.${guest}@example.com`,
        first_name: 'Storm',
        last_name: `Guest ${guest}`,
      },
    });
    ids.push(booked.id);
  }
  for (const [index, id] of ids.entries()) {
    if (index % 3 === 0) await client.range.reservations.checkIn(id);
    else if (index % 3 === 1) await client.range.reservations.cancel(id, { reason: 'storm' });
    else if (index % 5 === 2) await client.range.reservations.markNoShow(id);
  }
  return ids;
}
