// Dead letters of `sync_shop_inbox` listed and replayed, applied rows pruned: row edits only (the lease
// holder applies).
import { ShopError } from '../../core/errors/shop-error.js';
import { redact } from '../../internal/redact.js';
import type { SqlExecutor } from '../engine/database.js';

/** A dead delivery, without payload or secret. */
export interface FleetDeadLetter {
  readonly shop: string;
  readonly eventId: string;
  /** `unreadable` when not JSON. */
  readonly type: string;
  readonly attempts: number;
  /** ISO times. */
  readonly receivedAt: string;
  readonly deadAt: string;
  readonly lastError: string | null;
}

/** What {@link readDeadLetters} lists. */
export interface DeadLetterQuery {
  /** @default every shop */
  readonly shop?: string;
  /** @default 100 */
  readonly limit?: number;
}

/** The dead letters to replay: one event of a shop, or all of them. */
export type FleetReplayRequest =
  | { readonly shop: string; readonly eventId: string }
  | { readonly shop: string; readonly all: true };

/** By shop, oldest first. */
export async function readDeadLetters(
  db: SqlExecutor,
  query: DeadLetterQuery = {},
): Promise<FleetDeadLetter[]> {
  const limit = query.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1)
    throw new ShopError(`limit must be a whole number from 1, got ${limit}`);
  const rows = await db.all<Record<string, unknown>>(
    `SELECT "shop", "event_id", "event", "attempts", "received_at", "dead_at", "last_error" FROM "sync_shop_inbox" WHERE "dead_at" IS NOT NULL AND "applied_at" IS NULL${query.shop === undefined ? '' : ' AND "shop" = ?'} ORDER BY "shop", "dead_at", "event_id" LIMIT ?`,
    query.shop === undefined ? [limit] : [query.shop, limit],
  );
  return rows.map((row) => ({
    shop: String(row.shop),
    eventId: String(row.event_id),
    type: typeOf(row.event),
    attempts: Number(row.attempts),
    receivedAt: new Date(Number(row.received_at)).toISOString(),
    deadAt: new Date(Number(row.dead_at)).toISOString(),
    lastError:
      row.last_error === null || row.last_error === undefined ? null : redact(String(row.last_error)),
  }));
}

/** Resets dead letters to pending; resolves with their event ids. */
export async function replayDeadLetters(db: SqlExecutor, request: FleetReplayRequest): Promise<string[]> {
  const shop = request?.shop;
  if (typeof shop !== 'string' || shop === '') throw new ShopError('replayDeadLetters needs { shop }');
  const one = 'eventId' in request ? request.eventId : null;
  if (one === null && !('all' in request && request.all === true))
    throw new ShopError('replayDeadLetters needs { shop, eventId } or { shop, all: true }');
  const rows = await db.all<{ event_id: unknown }>(
    `UPDATE "sync_shop_inbox" SET "attempts" = 0, "dead_at" = NULL, "last_error" = NULL WHERE "shop" = ? AND "dead_at" IS NOT NULL AND "applied_at" IS NULL${one === null ? '' : ' AND "event_id" = ?'} RETURNING "event_id"`,
    one === null ? [shop] : [shop, one],
  );
  return rows.map((row) => String(row.event_id)).sort();
}

/** Deletes up to `limit` deliveries of `shop` applied before `before` (ms). */
export function pruneApplied(db: SqlExecutor, shop: string, before: number, limit: number): Promise<number> {
  return db.run(
    'DELETE FROM "sync_shop_inbox" WHERE "shop" = ? AND "event_id" IN (SELECT "event_id" FROM "sync_shop_inbox" WHERE "shop" = ? AND "applied_at" < ? LIMIT ?)',
    [shop, shop, before, limit],
  );
}

function typeOf(event: unknown): string {
  try {
    const type = (JSON.parse(String(event)) as { type?: unknown }).type;
    return typeof type === 'string' ? type : 'unreadable';
  } catch {
    return 'unreadable';
  }
}
