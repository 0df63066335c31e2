import { SYNC_EVENTS } from '../../generated/sync-schema.js';
import type { SqlExecutor } from './database.js';
import { type SyncStore, tableNamed } from './store.js';

/** The part of an event the engine reads (feed and webhook copies are the same envelope). */
export interface SyncEvent {
  readonly id: string;
  readonly type: string;
  readonly created_at: string;
  readonly data: { readonly object?: unknown };
}

/**
 * Writes one event's record where it belongs (reference section 6): a record event upserts by the copy's
 * rank (a late or repeated event never overwrites a newer row), a deletion sets `deleted_at`, a payload
 * that carries another record (a returned gun's `last_checkout`) stores that one too, and the fields an
 * event adds to the record (`qty_delta`, `change`) are left out of the stored copy: stock is `qty_available`.
 * Event types without a table (orders, pings, types newer than the SDK) write nothing. Resolves with the rows
 * written.
 */
export async function applyEvent(
  store: SyncStore,
  tx: SqlExecutor,
  event: SyncEvent,
  now: string,
): Promise<number> {
  const route = SYNC_EVENTS[event.type];
  const object = event.data?.object;
  if (!route || !object || typeof object !== 'object') return 0;
  const record = object as Record<string, unknown>;
  const table = tableNamed(route.table);
  if (route.deletes) return store.tombstone(tx, table, record, event.created_at, now);
  let written = 0;
  const source = { eventId: event.id, createdAt: event.created_at };
  for (const nested of route.nested) {
    const inner = record[nested.field];
    if (inner && typeof inner === 'object') {
      written += await store.upsert(
        tx,
        tableNamed(nested.table),
        [inner as Record<string, unknown>],
        source,
        now,
      );
    }
  }
  const copy: Record<string, unknown> = { ...record };
  for (const field of route.omit) delete copy[field];
  written += await store.upsert(tx, table, [copy], source, now);
  return written;
}
