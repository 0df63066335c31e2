// The fleet's tables: `sync_shops` (a health row per shop) and `sync_shop_inbox` (deliveries per shop; one
// that failed `maxAttempts` times is kept with `dead_at` and `last_error`, and the shop goes on without it).
import type { SqlExecutor, SyncDatabase } from '../engine/database.js';

/** What a shop is doing now. */
export type ShopState =
  /** Registered, not started yet. */
  | 'waiting'
  /** First backfill under way. */
  | 'backfilling'
  /** Backfilled; kept current from webhooks and the feed. */
  | 'current'
  /** Current, but some tables are skipped (402/403). */
  | 'degraded'
  /** Server errors or timeouts: backing off. */
  | 'retrying'
  /** The key is refused (401); retried every few minutes. */
  | 'paused'
  /** Another worker holds the shop's lease. */
  | 'elsewhere'
  /** The fleet stopped before the shop's first pass ended. */
  | 'stopped';

/** Why a shop is not simply current. */
export type ShopReason =
  | 'key_revoked'
  | 'missing_add_on'
  | 'missing_permission'
  | 'server_error'
  | 'timeout'
  | 'unreachable'
  | 'rate_limited'
  | 'lease_lost'
  | 'error';

/** One shop's health line. */
export interface ShopStatus {
  readonly shop: string;
  readonly state: ShopState;
  readonly reason: ShopReason | null;
  /** The worker holding the shop's lease. */
  readonly leaseHolder: string | null;
  /** The end of the last successful pass (ISO time). */
  readonly lastSuccessAt: string | null;
  /** Seconds since the feed was last read. */
  readonly feedAgeSeconds: number | null;
  /** Age in seconds of the oldest delivery not applied yet. */
  readonly inboxLagSeconds: number;
  /** Deliveries not applied yet (dead letters apart). */
  readonly inboxPending: number;
  /** Deliveries that failed `maxAttempts` times, kept with `dead_at` and never applied. */
  readonly inboxDead: number;
  /** API calls in the last minute. */
  readonly callsLastMinute: number;
  /** The last API call for the shop by any worker (ISO time). */
  readonly lastCallAt: string | null;
  /** Calls allowed a minute: X-RateLimit-Limit times maxShare. */
  readonly callsCap: number | null;
  /** Tables skipped in the last pass (402/403). */
  readonly skipped: readonly string[];
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
  readonly updatedAt: string;
  /** The line may be out of date: its promised rewrite time passed, or its last write failed. */
  readonly stale: boolean;
}

/** Whether a shop needs someone: paused, retrying, degraded, stale, or with dead letters. */
export function unhealthy(status: ShopStatus): boolean {
  return (
    status.stale ||
    status.inboxDead > 0 ||
    status.state === 'paused' ||
    status.state === 'retrying' ||
    status.state === 'degraded'
  );
}

const SHOPS_DDL = `CREATE TABLE IF NOT EXISTS "sync_shops" (
  "shop" TEXT PRIMARY KEY,
  "state" TEXT NOT NULL,
  "reason" TEXT,
  "lease_holder" TEXT,
  "last_success_at" TEXT,
  "feed_read_at" TEXT,
  "calls_last_minute" INTEGER NOT NULL DEFAULT 0,
  "calls_cap" BIGINT,
  "skipped" TEXT NOT NULL DEFAULT '',
  "last_error" TEXT,
  "last_error_at" TEXT,
  "updated_at" TEXT NOT NULL,
  "fresh_until" TEXT,
  "last_call_at" TEXT
)`;

const INBOX_DDL = `CREATE TABLE IF NOT EXISTS "sync_shop_inbox" (
  "shop" TEXT NOT NULL,
  "event_id" TEXT NOT NULL,
  "event" TEXT NOT NULL,
  "received_at" BIGINT NOT NULL,
  "applied_at" BIGINT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "dead_at" BIGINT,
  "last_error" TEXT,
  PRIMARY KEY ("shop", "event_id")
)`;

/** Creates the fleet's tables when missing (never drops or changes anything). */
export async function setupFleetTables(db: SyncDatabase): Promise<void> {
  await db.run(SHOPS_DDL);
  // Older tables get the new columns (a racing worker's error is moot).
  await addColumn(db, 'sync_shops', 'fresh_until', 'TEXT');
  await addColumn(db, 'sync_shops', 'last_call_at', 'TEXT');
  await db.run(INBOX_DDL);
  await addColumn(db, 'sync_shop_inbox', 'attempts', 'INTEGER NOT NULL DEFAULT 0');
  await addColumn(db, 'sync_shop_inbox', 'dead_at', 'BIGINT');
  await addColumn(db, 'sync_shop_inbox', 'last_error', 'TEXT');
  await db.run(
    'CREATE INDEX IF NOT EXISTS "sync_shop_inbox_pending" ON "sync_shop_inbox" ("shop", "applied_at", "received_at")',
  );
}

async function addColumn(db: SyncDatabase, table: string, column: string, type: string): Promise<void> {
  const has = await db.all(`SELECT "${column}" FROM "${table}" LIMIT 0`).then(
    () => true,
    () => false,
  );
  if (has) return;
  await db
    .run(
      `ALTER TABLE "${table}" ADD COLUMN ${db.dialect === 'postgres' ? 'IF NOT EXISTS ' : ''}"${column}" ${type}`,
    )
    .catch(() => undefined);
}

/** The health row of one shop as the fleet writes it. */
export interface ShopHealthRow {
  readonly shop: string;
  readonly state: ShopState;
  readonly reason: ShopReason | null;
  readonly leaseHolder: string | null;
  readonly lastSuccessAt: string | null;
  readonly feedReadAt: string | null;
  readonly callsLastMinute: number;
  readonly lastCallAt: string | null;
  readonly callsCap: number | null;
  readonly skipped: readonly string[];
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
  /** When the row will be rewritten at the latest (ISO time). */
  readonly freshUntil: string | null;
}

/** A shop's line. A non-holder (`writer`) replaces only its own or an unheld one; see docs/many-shops.md. */
export async function writeHealth(
  db: SqlExecutor,
  row: ShopHealthRow,
  writer: string | null = null,
): Promise<void> {
  await db.run(
    `INSERT INTO "sync_shops" ("shop", "state", "reason", "lease_holder", "last_success_at", "feed_read_at", "calls_last_minute", "calls_cap", "skipped", "last_error", "last_error_at", "updated_at", "fresh_until", "last_call_at")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT ("shop") DO UPDATE SET "state" = excluded."state", "reason" = excluded."reason", "lease_holder" = excluded."lease_holder", "last_success_at" = COALESCE(excluded."last_success_at", "sync_shops"."last_success_at"), "feed_read_at" = COALESCE(excluded."feed_read_at", "sync_shops"."feed_read_at"), "calls_last_minute" = excluded."calls_last_minute", "calls_cap" = excluded."calls_cap", "skipped" = excluded."skipped", "last_error" = excluded."last_error", "last_error_at" = excluded."last_error_at", "updated_at" = excluded."updated_at",
       "fresh_until" = CASE WHEN excluded."state" = 'elsewhere' THEN "sync_shops"."fresh_until" ELSE excluded."fresh_until" END,
       "last_call_at" = CASE WHEN "sync_shops"."last_call_at" IS NULL OR excluded."last_call_at" > "sync_shops"."last_call_at" THEN excluded."last_call_at" ELSE "sync_shops"."last_call_at" END
     WHERE excluded."lease_holder" IS NOT NULL OR "sync_shops"."lease_holder" IS NULL OR "sync_shops"."lease_holder" = ?`,
    [
      row.shop,
      row.state,
      row.reason,
      row.leaseHolder,
      row.lastSuccessAt,
      row.feedReadAt,
      row.callsLastMinute,
      row.callsCap,
      row.skipped.join(','),
      row.lastError,
      row.lastErrorAt,
      new Date().toISOString(),
      row.freshUntil,
      row.lastCallAt,
      writer,
    ],
  );
}

/** Every shop's health line, by name; `shops` limits it to those (a fleet's own registry). */
export async function readStatus(
  db: SqlExecutor,
  now: number = Date.now(),
  shops?: readonly string[],
): Promise<ShopStatus[]> {
  const rows = await db.all<Record<string, unknown>>('SELECT * FROM "sync_shops" ORDER BY "shop"');
  const waiting = await db.all<{ shop: unknown; pending: unknown; oldest: unknown }>(
    'SELECT "shop", COUNT(*) AS "pending", MIN("received_at") AS "oldest" FROM "sync_shop_inbox" WHERE "applied_at" IS NULL AND "dead_at" IS NULL GROUP BY "shop"',
  );
  const inbox = new Map(waiting.map((row) => [String(row.shop), row]));
  const deadRows = await db.all<{ shop: unknown; dead: unknown }>(
    'SELECT "shop", COUNT(*) AS "dead" FROM "sync_shop_inbox" WHERE "dead_at" IS NOT NULL GROUP BY "shop"',
  );
  const dead = new Map(deadRows.map((row) => [String(row.shop), Number(row.dead)]));
  const wanted = shops ? new Set(shops) : null;
  const out: ShopStatus[] = [];
  for (const row of rows) {
    const shop = String(row.shop);
    if (wanted && !wanted.has(shop)) continue;
    const pending = inbox.get(shop);
    const feedReadAt = text(row.feed_read_at);
    const freshUntil = text(row.fresh_until);
    out.push({
      shop,
      state: String(row.state) as ShopState,
      reason: (text(row.reason) as ShopReason | null) ?? null,
      leaseHolder: text(row.lease_holder),
      lastSuccessAt: text(row.last_success_at),
      feedAgeSeconds: feedReadAt ? Math.max(0, Math.round((now - Date.parse(feedReadAt)) / 1000)) : null,
      inboxLagSeconds: pending ? Math.max(0, Math.round((now - Number(pending.oldest)) / 1000)) : 0,
      inboxPending: pending ? Number(pending.pending) : 0,
      inboxDead: dead.get(shop) ?? 0,
      callsLastMinute: Number(row.calls_last_minute ?? 0),
      lastCallAt: text(row.last_call_at),
      callsCap: row.calls_cap === null || row.calls_cap === undefined ? null : Number(row.calls_cap),
      skipped: String(row.skipped ?? '')
        .split(',')
        .filter((name) => name !== ''),
      lastError: text(row.last_error),
      lastErrorAt: text(row.last_error_at),
      updatedAt: String(row.updated_at),
      stale: freshUntil !== null && now > Date.parse(freshUntil),
    });
  }
  return out;
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}
