import type { Operation } from '../../core/api/operation.js';
import type { PagePromise } from '../../core/api/pagination.js';
import type { RequestParams } from '../../core/api/params.js';
import { PaymentRequiredError, PermissionDeniedError } from '../../core/errors/api-errors.js';
import { ShopError } from '../../core/errors/shop-error.js';
import type { DerivedOptions } from '../../core/options/client-options.js';
import type { RateLimitStore } from '../../core/rate-limit/rate-limit-store.js';
import type { ShopEvent } from '../../generated/events.js';
import { operations } from '../../generated/operations.js';
import { SYNC_TABLES } from '../../generated/sync-schema.js';
import type { InboxTransaction } from '../inbox/types.js';
import { applyEvent, type SyncEvent } from './apply-event.js';
import { openSyncDatabase, type SqlExecutor, type SyncDatabase } from './database.js';
import { publishSync } from './diagnostics.js';
import type { SyncTable } from './schema-types.js';
import { migrate, type RejectedRecord, type StreamCheckpoint, SyncStore } from './store.js';

/** What the engine needs from a client (a `ShopClient` fits); named here so the engine sits below it. */
export interface ShopSyncClient {
  readonly events: {
    /** One page of the feed. */
    list(params: { limit?: number; updated_since?: string; cursor?: string }): PagePromise<ShopEvent>;
  };
  /** One page of a cursor-paginated list operation. */
  list(operation: Operation & { readonly pagination: 'cursor' }, params: RequestParams): PagePromise<unknown>;
  /** The same client paced by `throttle`. */
  withOptions(options: Pick<DerivedOptions, 'throttle'>): ShopSyncClient;
}

/** Options of {@link ShopSync}. */
export interface ShopSyncOptions {
  readonly client: ShopSyncClient;
  /** A SQLite path, a `postgres://` URL, or an `openSyncDatabase` handle. */
  readonly db: string | SyncDatabase;
  /** Names this shop's rows, so one database can hold many shops. @default 'default' */
  readonly shop?: string;
  /** `object` names. @default every table a list endpoint fills */
  readonly tables?: readonly string[];
  /** Share (0 to 1) of the shop's rate limit the reads may take. @default 1 */
  readonly maxShare?: number;
  /** The partner's rate-limit store, to share their schedule. */
  readonly rateLimit?: { readonly store: RateLimitStore; readonly key?: string };
  /** 1 to 200. @default 200 */
  readonly pageSize?: number;
  /** A gap found (repaired with a scoped re-pull). */
  readonly onGap?: (gap: SyncGap) => void;
  /** After each page written. */
  readonly onProgress?: (progress: SyncProgress) => void;
  /** Runs first in every write transaction; a throw rolls it back. */
  readonly beforeWrite?: (tx: SqlExecutor) => Promise<void>;
}

/** Something the engine could not get by its normal path, and what it did about it. */
export interface SyncGap {
  readonly stream: string;
  /** The kind of gap; docs/sync.md describes each. */
  readonly reason: 'feed_expired' | 'stream_unavailable' | 'missed_changes' | 'record_rejected';
  readonly since: string | null;
  readonly detail: string;
}

/** What `onProgress` is told after each page a walk (or the event pass) reads. */
export interface SyncProgress {
  readonly stream: string;
  readonly phase: 'backfill' | 'repair' | 'events';
  readonly rows: number;
  readonly written: number;
  readonly pages: number;
  readonly done: boolean;
}

/** What a pass did. */
export interface SyncPassResult {
  readonly rows: number;
  readonly written: number;
  readonly pages: number;
  readonly skipped: readonly string[];
  /** Records the database refused. */
  readonly rejected: number;
}

/** The calls a backfill would make, from one probe page per stream. */
export interface SyncEstimate {
  readonly streams: readonly { stream: string; pages: number; exact: boolean }[];
  readonly calls: number;
  /** `X-RateLimit-Limit` of the probe answers. */
  readonly requestsPerMinute: number | null;
  /** Minutes the calls take at `maxShare` of that rate. */
  readonly minutes: number | null;
}

/** How far behind the feed is re-read, for events committed after newer ones. */
const FEED_OVERLAP_MS = 60_000;
const FEED_RETENTION_MS = 30 * 86_400_000;
/** Query a stream always sends (every session; products with stock). */
const STREAM_QUERY: Record<string, Record<string, unknown>> = {
  'range.sessions.list': { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' },
  'products.list': { include: 'inventory' },
};

/**
 * Keeps a database in step with one shop: backfilled by `updated_since` walks whose pages commit with their
 * checkpoint, kept current from events, checked by repair passes (docs/sync.md).
 * @example
 * await new ShopSync({ client: new ShopClient(), db: './shop.db' }).runOnce();
 */
export class ShopSync {
  readonly #options: ShopSyncOptions;
  readonly #tables: readonly SyncTable[];
  #db: SyncDatabase | null = null;
  #store: SyncStore | null = null;
  #client: ShopSyncClient;
  #paced = false;

  constructor(options: ShopSyncOptions) {
    if (!options?.client) throw new ShopError('ShopSync needs { client, db }: client is missing');
    if (!options.db) throw new ShopError('ShopSync needs { client, db }: db is missing');
    const share = options.maxShare ?? 1;
    if (!(share > 0 && share <= 1))
      throw new ShopError(`maxShare must be above 0 and at most 1, got ${share}`);
    const pageSize = options.pageSize ?? 200;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 200)
      throw new ShopError(`pageSize must be a whole number from 1 to 200, got ${pageSize}`);
    const wanted = options.tables;
    const backfilled = SYNC_TABLES.filter((table) => table.operation !== null);
    for (const name of wanted ?? []) {
      if (!backfilled.some((table) => table.table === name))
        throw new ShopError(
          `no sync table ${JSON.stringify(name)}; tables: ${backfilled.map((t) => t.table).join(', ')}`,
        );
    }
    this.#tables = wanted ? backfilled.filter((table) => wanted.includes(table.table)) : backfilled;
    this.#options = { ...options, maxShare: share, pageSize };
    this.#client = options.client;
  }

  /** The shop key of this engine's rows. */
  get shop(): string {
    return this.#options.shop ?? 'default';
  }

  /** The database, opened (and migrated) on first use. */
  async database(): Promise<SyncDatabase> {
    await this.#ready();
    return this.#db!;
  }

  /** Upgrades the database's tables to this SDK's schema (never drops anything). */
  async migrate(): Promise<{ from: number; to: number }> {
    const db = await this.#open();
    return migrate(db);
  }

  /** Walks every stream from its checkpoint (an interrupted walk resumes at its page). */
  async backfill(): Promise<SyncPassResult> {
    return this.#pass('backfill');
  }

  /** Re-reads every stream from the last repair; rows it had to fix are reported as `missed_changes`. */
  async repair(): Promise<SyncPassResult & { readonly repaired: number }> {
    const run = await this.#startRun('repair');
    try {
      const result = await this.#pass('repair');
      if (result.written > 0) {
        this.#options.onGap?.({
          stream: '*',
          reason: 'missed_changes',
          since: null,
          detail: `repair wrote ${result.written} rows no event had brought: is a webhook endpoint of the shop turned off, or not subscribed to every type?`,
        });
      }
      await this.#finishRun(run, {
        rowsWritten: result.written,
        rowsRepaired: result.written,
        errors: result.skipped.length + result.rejected,
      });
      return { ...result, repaired: result.written };
    } catch (error) {
      await this.#finishRun(run, {
        rowsWritten: 0,
        rowsRepaired: 0,
        errors: 1,
        error: (error as Error).message,
      });
      throw error;
    }
  }

  /** Applies one event in its own transaction, or in `tx`. */
  async applyEvent(event: SyncEvent, tx?: SqlExecutor): Promise<number> {
    await this.#ready();
    const now = new Date().toISOString();
    const rejected: RejectedRecord[] = [];
    const store = this.#collecting(rejected);
    const written = tx
      ? await this.#fenced(tx, () => applyEvent(store, tx, event, now))
      : await this.#transaction((inner) => applyEvent(store, inner, event, now));
    this.#reportRejected('events', rejected, `event ${event.id} (${event.type})`);
    publishSync(() => ({ type: 'event', shop: this.shop, written, createdAt: event.created_at }));
    return written;
  }

  /** An inbox worker's handler; with a SQL inbox here, rows and done mark commit together. */
  inboxHandler(): (
    event: SyncEvent,
    context: { readonly tx: InboxTransaction | undefined },
  ) => Promise<void> {
    return async (event, context) => {
      const tx = context.tx;
      await this.applyEvent(
        event,
        tx
          ? {
              all: (sql, params) => tx.query(sql, params),
              run: async (sql, params) => (await tx.execute(sql, params)).changes,
            }
          : undefined,
      );
    };
  }

  /** Reads the feed from its checkpoint, each page applied with the checkpoint in one transaction. */
  async catchUp(): Promise<SyncPassResult> {
    await this.#ready();
    const store = this.#store!;
    const saved = (await store.checkpoint('events')) ?? emptyCheckpoint();
    let since = saved.cursor ? saved.walkSince : saved.since;
    let cursor = saved.cursor;
    let newest = since;
    let rows = 0;
    let written = 0;
    let pages = 0;
    let rejectedCount = 0;
    for (;;) {
      const params = {
        limit: this.#options.pageSize,
        ...(since ? { updated_since: since } : {}),
        ...(cursor ? { cursor } : {}),
      };
      await this.#spaced();
      const { data: page, rateLimit } = await this.#client.events.list(params).withResponse();
      this.#pace(rateLimit.limit);
      pages++;
      if (pages === 1 && !cursor && since && rateLimit.reset !== null) {
        const serverNow = rateLimit.reset * 1000 - 60_000;
        if (Date.parse(since) < serverNow - FEED_RETENTION_MS) {
          const mark = new Date(serverNow).toISOString();
          await this.#refill(
            since,
            'events',
            `the feed checkpoint ${since} is older than the feed's 30 days`,
          );
          await this.#transaction((tx) =>
            store.saveCheckpoint(
              tx,
              'events',
              { ...emptyCheckpoint(), since: mark },
              new Date().toISOString(),
            ),
          );
          since = mark;
          newest = mark;
          continue;
        }
      }
      const now = new Date().toISOString();
      for (const event of page.data) if (!newest || event.created_at > newest) newest = event.created_at;
      const done = !page.hasNextPage();
      const rejected: RejectedRecord[] = [];
      const collecting = this.#collecting(rejected);
      const pageWritten = await this.#transaction(async (tx) => {
        rejected.length = 0;
        let count = 0;
        for (const event of page.data) count += await applyEvent(collecting, tx, event as SyncEvent, now);
        const next: StreamCheckpoint = done
          ? {
              ...emptyCheckpoint(),
              since: overlapBefore(newest),
              rows: saved.rows + rows + page.data.length,
              completedAt: now,
            }
          : {
              ...saved,
              cursor: page.nextCursor,
              walkSince: since,
              rows: saved.rows + rows + page.data.length,
            };
        await store.saveCheckpoint(tx, 'events', next, now);
        return count;
      });
      written += pageWritten;
      rows += page.data.length;
      rejectedCount += this.#reportRejected('events', rejected, 'the event feed');
      const shop = this.shop;
      publishSync(() => ({
        type: 'page',
        shop,
        stream: 'events',
        phase: 'events',
        written: pageWritten,
        done,
      }));
      this.#options.onProgress?.({ stream: 'events', phase: 'events', rows, written, pages, done });
      if (done) return { rows, written, pages, skipped: [], rejected: rejectedCount };
      cursor = page.nextCursor;
    }
  }

  /** Migrates, backfills and catches up from the feed, recorded as one `sync_runs` row. */
  async runOnce(): Promise<SyncPassResult> {
    await this.#ready();
    const run = await this.#startRun('once');
    try {
      const backfill = await this.backfill();
      const events = await this.catchUp();
      const result = {
        rows: backfill.rows + events.rows,
        written: backfill.written + events.written,
        pages: backfill.pages + events.pages,
        skipped: backfill.skipped,
        rejected: backfill.rejected + events.rejected,
      };
      await this.#finishRun(run, {
        rowsWritten: result.written,
        rowsRepaired: 0,
        errors: result.skipped.length + result.rejected,
      });
      return result;
    } catch (error) {
      await this.#finishRun(run, {
        rowsWritten: 0,
        rowsRepaired: 0,
        errors: 1,
        error: (error as Error).message,
      });
      throw error;
    }
  }

  /** One probe page per stream: the calls a backfill needs. */
  async estimate(): Promise<SyncEstimate> {
    // Reads checkpoints only; never migrates.
    const store = this.#store ?? new SyncStore(await this.#open(), this.shop);
    const streams: { stream: string; pages: number; exact: boolean }[] = [];
    let limit: number | null = null;
    for (const table of this.#tables) {
      const checkpoint = await store.checkpoint(table.table).catch(() => null);
      const params = this.#query(table, table.incremental ? (checkpoint?.since ?? null) : null, null);
      try {
        await this.#spaced();
        const { data: page, rateLimit } = await this.#list(table, params).withResponse();
        limit = rateLimit.limit ?? limit;
        const known =
          checkpoint && !table.incremental ? Math.ceil(checkpoint.rows / this.#options.pageSize!) : 0;
        streams.push(
          page.hasNextPage()
            ? { stream: table.table, pages: Math.max(2, known), exact: false }
            : { stream: table.table, pages: 1, exact: true },
        );
      } catch (error) {
        if (!unavailable(error)) throw error;
      }
    }
    const calls = streams.reduce((sum, stream) => sum + stream.pages, 0);
    const rate = limit === null ? null : limit * this.#options.maxShare!;
    return { streams, calls, requestsPerMinute: limit, minutes: rate ? calls / rate : null };
  }

  /** Closes the database if the engine opened it. */
  async close(): Promise<void> {
    if (this.#db && typeof this.#options.db === 'string') await this.#db.close();
    this.#db = null;
    this.#store = null;
  }

  async #pass(phase: 'backfill' | 'repair'): Promise<SyncPassResult> {
    await this.#ready();
    let rows = 0;
    let written = 0;
    let pages = 0;
    let rejected = 0;
    const skipped: string[] = [];
    for (const table of this.#tables) {
      try {
        const result = await this.#walk(
          table,
          phase === 'repair' ? `repair:${table.table}` : table.table,
          phase,
        );
        rows += result.rows;
        written += result.written;
        pages += result.pages;
        rejected += result.rejected;
      } catch (error) {
        if (!unavailable(error)) throw error;
        skipped.push(table.table);
        this.#options.onGap?.({
          stream: table.table,
          reason: 'stream_unavailable',
          since: (await this.#store!.checkpoint(table.table))?.since ?? null,
          detail: `${table.operation} answered ${(error as Error).message}; re-read from its checkpoint once it answers`,
        });
      }
    }
    return { rows, written, pages, skipped, rejected };
  }

  /** Walks one list from its checkpoint, each page committed with it; mid-walk changes are re-read next. */
  async #walk(table: SyncTable, stream: string, phase: 'backfill' | 'repair') {
    const store = this.#store!;
    let saved = await store.checkpoint(stream);
    if (!saved && phase === 'repair') {
      // The first repair reads from where the backfill's last walk began.
      const backfill = await store.checkpoint(table.table);
      saved = { ...emptyCheckpoint(), since: backfill?.since ?? null };
    }
    saved ??= emptyCheckpoint();
    // Records without a documented updated_at are read in full (a product's price changes without it).
    const incremental = table.incremental && table.versioned;
    const since = saved.cursor ? saved.walkSince : saved.since;
    let cursor = saved.cursor;
    let mark = saved.cursor ? saved.walkStartedAt : null;
    // Full walks stamp rows with a generation (kept in the checkpoint); at the end older ones are gone. No clock
    // is compared, so a skew between processes deletes nothing.
    let generation = incremental || !saved.cursor ? null : (saved.walkGeneration ?? null);
    let rows = 0;
    let written = 0;
    let pages = 0;
    let rejectedCount = 0;
    for (;;) {
      await this.#spaced();
      const { data: page, rateLimit } = await this.#list(
        table,
        this.#query(table, incremental ? since : null, cursor),
      ).withResponse();
      this.#pace(rateLimit.limit);
      pages++;
      mark ??= new Date(
        rateLimit.reset !== null ? rateLimit.reset * 1000 - 60_000 : Date.now() - 300_000,
      ).toISOString();
      const records = page.data as Record<string, unknown>[];
      const done = !page.hasNextPage();
      const now = new Date().toISOString();
      const rejected: RejectedRecord[] = [];
      const collecting = this.#collecting(rejected);
      const pageWritten = await this.#transaction(async (tx) => {
        rejected.length = 0;
        const count = await collecting.upsert(tx, table, records, 'list', now);
        let walk: number | null = null;
        if (!incremental) {
          walk = generation ?? (await store.nextWalk(tx, table));
          await store.touch(tx, table, records, walk, now);
          if (done) await store.markVanished(tx, table, walk, now);
        }
        const total = saved.rows + rows + records.length;
        const next: StreamCheckpoint = done
          ? {
              since: incremental ? mark : null,
              cursor: null,
              walkSince: null,
              walkStartedAt: null,
              walkGeneration: null,
              rows: total,
              completedAt: now,
            }
          : {
              ...saved,
              cursor: page.nextCursor,
              walkSince: incremental ? since : null,
              walkStartedAt: mark,
              walkGeneration: walk,
              rows: total,
            };
        await store.saveCheckpoint(tx, stream, next, now);
        if (phase === 'backfill' && !(await store.checkpoint('events', tx))) {
          // From when the first backfill began: events during it are applied after it.
          await store.saveCheckpoint(tx, 'events', { ...emptyCheckpoint(), since: mark }, now);
        }
        generation = walk;
        return count;
      });
      written += pageWritten;
      rows += records.length;
      rejectedCount += this.#reportRejected(table.table, rejected, `a page of ${table.operation}`);
      const shop = this.shop;
      publishSync(() => ({ type: 'page', shop, stream: table.table, phase, written: pageWritten, done }));
      this.#options.onProgress?.({ stream: table.table, phase, rows, written, pages, done });
      if (done) return { rows, written, pages, rejected: rejectedCount };
      cursor = page.nextCursor;
    }
  }

  /** The store, telling `into` of each record the database refuses. */
  #collecting(into: RejectedRecord[]): SyncStore {
    return this.#store!.withOptions({ onRejected: (rejected) => into.push(rejected) });
  }

  /** Reports each refused record of a committed page or event as a `record_rejected` gap. */
  #reportRejected(stream: string, rejected: readonly RejectedRecord[], where: string): number {
    for (const record of rejected) {
      this.#options.onGap?.({
        stream,
        reason: 'record_rejected',
        since: null,
        detail: `the database refused ${record.table} ${record.key} from ${where}: ${record.message}; the record is left out, the rest was written`,
      });
    }
    return rejected.length;
  }

  /** A scoped re-pull after a gap, every stream re-read from `since`. */
  async #refill(since: string, stream: string, detail: string): Promise<void> {
    this.#options.onGap?.({
      stream,
      reason: 'feed_expired',
      since,
      detail: `${detail}; re-reading every stream from it`,
    });
    const store = this.#store!;
    const now = new Date().toISOString();
    await this.#transaction(async (tx) => {
      for (const table of this.#tables) {
        const saved = await store.checkpoint(table.table, tx);
        const from = saved?.since && saved.since < since ? saved.since : since;
        await store.saveCheckpoint(
          tx,
          table.table,
          { ...emptyCheckpoint(), since: table.incremental ? from : null, rows: saved?.rows ?? 0 },
          now,
        );
      }
    });
    await this.#pass('backfill');
  }

  #query(table: SyncTable, since: string | null, cursor: string | null): Record<string, unknown> {
    return {
      ...STREAM_QUERY[table.operation!],
      limit: this.#options.pageSize,
      ...(table.incremental && since ? { updated_since: since } : {}),
      ...(cursor ? { cursor } : {}),
    };
  }

  #list(table: SyncTable, params: Record<string, unknown>) {
    const operation = (operations as Record<string, Operation>)[table.operation!]!;
    return this.#client.list(operation as Operation & { readonly pagination: 'cursor' }, { query: params });
  }

  /** From the first answer, reads go through a throttle 3 % under the shop's limit, at `maxShare` of it. */
  #pace(limit: number | null): void {
    if (this.#paced || limit === null) return;
    this.#paced = true;
    const share = this.#options.maxShare!;
    if (share >= 1 && !this.#options.rateLimit) return;
    const { store, key } = this.#options.rateLimit ?? {};
    this.#client = this.#options.client.withOptions({
      throttle: { requestsPerMinute: limit * 0.97, ...(store ? { store } : {}), ...(key ? { key } : {}) },
    });
    if (share < 1) this.#gapMs = 60_000 / (limit * share * 0.97);
  }

  #gapMs = 0;
  #lastCall = Number.NEGATIVE_INFINITY;

  /** Waits for this engine's share, on the monotonic clock (a stepped wall clock must not hold it). */
  async #spaced(): Promise<void> {
    if (this.#gapMs <= 0) return;
    const wait = this.#lastCall + this.#gapMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.#lastCall = performance.now();
  }

  /** A write transaction, `beforeWrite` first. */
  #transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#db!.transaction((tx) => this.#fenced(tx, () => work(tx)));
  }

  async #fenced<T>(tx: SqlExecutor, work: () => Promise<T>): Promise<T> {
    await this.#options.beforeWrite?.(tx);
    return work();
  }

  /** A `sync_runs` row, written under `beforeWrite` (a worker that lost its lease writes none). */
  async #startRun(kind: string): Promise<string> {
    await this.#ready();
    return this.#transaction((tx) => this.#store!.startRun(kind, tx));
  }

  async #finishRun(id: string, result: Parameters<SyncStore['finishRun']>[1]): Promise<void> {
    const write = this.#transaction((tx) => this.#store!.finishRun(id, result, tx));
    // A failed run's end may meet the same refusal (a lease lost): the run's own error is the one to throw.
    if (result.error) await write.catch(() => undefined);
    else await write;
  }

  async #open(): Promise<SyncDatabase> {
    this.#db ??=
      typeof this.#options.db === 'string' ? await openSyncDatabase(this.#options.db) : this.#options.db;
    return this.#db;
  }

  #migrated: Promise<unknown> | null = null;

  async #ready(): Promise<void> {
    const db = await this.#open();
    this.#migrated ??= migrate(db);
    await this.#migrated;
    this.#store ??= new SyncStore(db, this.shop);
  }
}

function emptyCheckpoint(): StreamCheckpoint {
  return {
    since: null,
    cursor: null,
    walkSince: null,
    walkStartedAt: null,
    walkGeneration: null,
    rows: 0,
    completedAt: null,
  };
}

function overlapBefore(time: string | null): string | null {
  if (!time) return null;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? time : new Date(ms - FEED_OVERLAP_MS).toISOString();
}

/** A list the key or the shop's plan does not allow (any more): 402 or 403. */
function unavailable(error: unknown): boolean {
  return error instanceof PaymentRequiredError || error instanceof PermissionDeniedError;
}
