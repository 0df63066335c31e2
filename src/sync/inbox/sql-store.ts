// The inbox over SQL for the SQLite, Postgres and D1 adapters: one table, a lease as token and expiry on the
// row, and the done mark in the handler's transaction. D1 has no BEGIN/COMMIT: a lease is one UPDATE ...
// RETURNING, and `complete` holds the handler's writes for one batch [lease guard, done mark, writes].
import { ShopError } from '../../core/errors/shop-error.js';
import type { ShopEvent } from '../../webhooks/events.js';
import {
  numberPlaceholders,
  placeholder,
  type SqlDialect,
  type SqlDriver,
  type SqlSession,
  type SqlStatement,
} from '../sql/driver.js';
import type {
  InboxEntry,
  InboxFailure,
  InboxLease,
  InboxRecord,
  InboxSource,
  InboxStatus,
  InboxStore,
  InboxTransaction,
  LeaseRequest,
  PruneRequest,
} from './types.js';

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Checks a table name given in options: it is written into SQL. */
export function tableName(name: string | undefined): string {
  const table = name ?? 'shop_inbox';
  if (!TABLE_NAME.test(table)) {
    throw new ShopError(`The inbox table name must be letters, digits and _ (got ${JSON.stringify(table)}).`);
  }
  return table;
}

/** An {@link InboxStore} over a SQL driver; see the SQLite, Postgres and D1 adapters. */
export class SqlInboxStore implements InboxStore<InboxTransaction> {
  /** False on D1, whose handler holds no transaction. */
  readonly locksWhileWorking: boolean;
  readonly #driver: SqlDriver;
  /** The driver's batch on D1. */
  readonly #batch: ((statements: readonly SqlStatement[]) => Promise<unknown>) | null;
  readonly #t: string;
  readonly #p: (n: number) => string;

  constructor(driver: SqlDriver, table: string) {
    this.#driver = driver;
    this.#t = table;
    this.#p = placeholder(driver.dialect);
    if (driver.interactive === false) {
      if (typeof driver.batch !== 'function') {
        throw new ShopError('A SQL driver without interactive transactions must have batch().');
      }
      this.#batch = (statements) => driver.batch!(statements);
    } else this.#batch = null;
    this.locksWhileWorking = this.#batch === null;
  }

  async setup(): Promise<void> {
    const t = this.#t;
    const pg = this.#driver.dialect === 'postgres';
    const statements = [
      `CREATE TABLE IF NOT EXISTS ${t} (
        seq ${pg ? 'BIGSERIAL' : 'INTEGER PRIMARY KEY AUTOINCREMENT'},
        event_id TEXT NOT NULL ${pg ? 'PRIMARY KEY' : 'UNIQUE'},
        event TEXT NOT NULL,
        event_created_at TEXT NOT NULL,
        source TEXT NOT NULL,
        ordering_key TEXT,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        available_at BIGINT NOT NULL,
        lease_token TEXT,
        lease_until BIGINT,
        received_at BIGINT NOT NULL,
        done_at BIGINT,
        last_error TEXT
      )`,
      `CREATE INDEX IF NOT EXISTS ${t}_due ON ${t} (status, available_at)`,
      `CREATE INDEX IF NOT EXISTS ${t}_ordering ON ${t} (ordering_key, status, event_created_at)`,
      `CREATE INDEX IF NOT EXISTS ${t}_settled ON ${t} (status, done_at)`,
    ];
    // D1: one round trip (a Worker's every invocation may start with it).
    if (this.#batch) await this.#batch(statements.map((sql) => ({ sql, params: [] })));
    else for (const sql of statements) await this.#driver.run(sql, []);
  }

  async add({ event, source, orderingKey, now }: InboxRecord): Promise<boolean> {
    const p = this.#p;
    // Due at once (available_at 0), whatever the clock of the worker that reads it.
    const { changes } = await this.#driver.run(
      `INSERT INTO ${this.#t} (event_id, event, event_created_at, source, ordering_key, status, attempts,
         available_at, received_at)
       VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, 'pending', 0, 0, ${p(6)})
       ON CONFLICT (event_id) DO NOTHING`,
      [event.id, JSON.stringify(event), String(event.created_at ?? ''), source, orderingKey, now],
    );
    return changes > 0;
  }

  async lease({
    limit,
    leaseMs,
    now,
    ordered,
    alone = true,
    retryHorizonMs,
  }: LeaseRequest): Promise<InboxLease[]> {
    // ?1 now, ?2 limit, ?3 the new lease's end, ?4 the retry horizon (null: none).
    const params = [now, limit, now + leaseMs, retryHorizonMs === undefined ? null : now + retryHorizonMs];
    if (this.#batch) {
      // One statement claims (D1 runs one at a time); the suspect first, alone, as below.
      const suspects = alone ? await this.#driver.run(this.#claim(ordered, true), params) : undefined;
      if (suspects && suspects.rows.length > 0) return suspects.rows.map((row) => leaseOf(row, true));
      const { rows } = await this.#driver.run(this.#claim(ordered, false), params);
      return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((row) => leaseOf(row, false));
    }
    if (this.#driver.dialect === 'postgres') {
      const suspects = alone ? await this.#driver.run(this.#pgLease(ordered, true), params) : undefined;
      if (suspects && suspects.rows.length > 0) return suspects.rows.map((row) => leaseOf(row, true));
      const { rows } = await this.#driver.run(this.#pgLease(ordered, false), params);
      return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((row) => leaseOf(row, false));
    }
    return this.#driver.transaction(async (session) => {
      let suspect = false;
      let rows: Record<string, unknown>[] = [];
      if (alone) {
        rows = (await session.run(`${this.#due(ordered, true)} ORDER BY i.seq LIMIT 1`, params)).rows;
        suspect = rows.length > 0;
      }
      if (!suspect) {
        rows = (await session.run(`${this.#due(ordered, false)} ORDER BY i.seq LIMIT ?2`, params)).rows;
      }
      const leased: InboxLease[] = [];
      for (const row of rows) {
        const token = crypto.randomUUID();
        await session.run(
          `UPDATE ${this.#t} SET lease_token = ?, lease_until = ?, attempts = attempts + 1 WHERE event_id = ?`,
          [token, now + leaseMs, row.event_id],
        );
        leased.push(leaseOf({ ...row, attempts: Number(row.attempts) + 1, lease_token: token }, suspect));
      }
      return leased;
    });
  }

  /** The due events, suspects or not; a time further ahead than this worker could set counts as passed. */
  #due(ordered: boolean, suspect: boolean): string {
    const t = this.#t;
    const p = this.#p;
    // Ordered: only the oldest open event of its key (one in progress or waiting for its retry holds the
    // others back).
    const order = ordered
      ? `AND (i.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM ${t} o WHERE o.ordering_key = i.ordering_key
           AND o.status = 'pending' AND (o.event_created_at < i.event_created_at
             OR (o.event_created_at = i.event_created_at AND o.seq < i.seq))))`
      : '';
    const lease = suspect
      ? `i.lease_token IS NOT NULL AND (i.lease_until <= ${p(1)} OR i.lease_until > ${p(3)})`
      : 'i.lease_token IS NULL';
    return `SELECT i.event_id, i.event, i.attempts, i.source, i.ordering_key, i.seq FROM ${t} i
      WHERE i.status = 'pending' AND (i.available_at <= ${p(1)} OR i.available_at > ${p(4)})
        AND ${lease} ${order}`;
  }

  #pgLease(ordered: boolean, suspect: boolean): string {
    const t = this.#t;
    return `WITH picked AS (${this.#due(ordered, suspect)} ORDER BY i.seq LIMIT ${suspect ? 'LEAST($2::int, 1)' : '$2'}
        FOR UPDATE SKIP LOCKED)
      UPDATE ${t} SET lease_token = gen_random_uuid()::text, lease_until = $3, attempts = ${t}.attempts + 1
      FROM picked WHERE ${t}.event_id = picked.event_id
      RETURNING ${t}.event_id, ${t}.event, ${t}.attempts, ${t}.lease_token, ${t}.source, ${t}.ordering_key,
        ${t}.seq`;
  }

  /** The due events claimed in one SQLite statement (a driver without interactive transactions: D1). */
  #claim(ordered: boolean, suspect: boolean): string {
    const t = this.#t;
    // A token per row (randomblob), as Postgres's gen_random_uuid(); RETURNING gives the new attempt count.
    return `UPDATE ${t} SET lease_token = lower(hex(randomblob(16))), lease_until = ?3, attempts = attempts + 1
      WHERE event_id IN (SELECT event_id FROM (${this.#due(ordered, suspect)} ORDER BY i.seq
        LIMIT ${suspect ? 'min(?2, 1)' : '?2'}))
      RETURNING event_id, event, attempts, lease_token, source, ordering_key, seq`;
  }

  async renew(lease: InboxLease, leaseMs: number, now: number): Promise<boolean> {
    const p = this.#p;
    const { changes } = await this.#driver.run(
      `UPDATE ${this.#t} SET lease_until = ${p(1)} WHERE event_id = ${p(2)} AND lease_token = ${p(3)}
         AND status = 'pending'`,
      [now + leaseMs, lease.eventId, lease.token],
    );
    return changes > 0;
  }

  complete(
    lease: InboxLease,
    work: (tx: InboxTransaction) => Promise<void>,
    now: number,
  ): Promise<'done' | 'lost'> {
    if (this.#batch) return this.#completeInBatch(this.#batch, lease, work, now);
    const p = this.#p;
    const dialect = this.#driver.dialect;
    return this.#driver
      .transaction(async (session) => {
        // The done mark first: on Postgres it locks the row, so no other worker leases the event while the
        // handler runs; on SQLite the transaction holds the database's write lock.
        const { changes } = await session.run(
          `UPDATE ${this.#t} SET status = 'done', lease_token = NULL, lease_until = NULL, done_at = ${p(1)},
             last_error = NULL
           WHERE event_id = ${p(2)} AND lease_token = ${p(3)} AND status = 'pending'`,
          [now, lease.eventId, lease.token],
        );
        if (changes === 0) throw LOST;
        const { tx, close } = transactionOver(session, dialect);
        try {
          await work(tx);
        } finally {
          close();
        }
        return 'done' as const;
      })
      .catch((error: unknown) => {
        if (error === LOST) return 'lost' as const;
        throw error;
      });
  }

  /** `complete` on D1: the guard inserts a NULL event_id when the lease is lost, failing the whole batch. */
  async #completeInBatch(
    batch: (statements: readonly SqlStatement[]) => Promise<unknown>,
    lease: InboxLease,
    work: (tx: InboxTransaction) => Promise<void>,
    now: number,
  ): Promise<'done' | 'lost'> {
    const t = this.#t;
    const holder = [lease.eventId, lease.token];
    const held = async () =>
      (
        await this.#driver.run(
          `SELECT 1 AS held FROM ${t} WHERE event_id = ?1 AND lease_token = ?2 AND status = 'pending'`,
          holder,
        )
      ).rows.length > 0;
    // As the SQLite and Postgres stores (their done mark comes first): a lease already lost runs no handler.
    if (!(await held())) return 'lost';
    const writes: SqlStatement[] = [];
    const { tx, close } = heldWritesOver(this.#driver, writes);
    try {
      await work(tx);
    } finally {
      close();
    }
    try {
      await batch([
        {
          sql: `INSERT INTO ${t} (event_id, event, event_created_at, source, status, available_at, received_at)
            SELECT NULL, '', '', '', 'lost', 0, 0 WHERE NOT EXISTS (SELECT 1 FROM ${t}
              WHERE event_id = ?1 AND lease_token = ?2 AND status = 'pending')`,
          params: holder,
        },
        {
          sql: `UPDATE ${t} SET status = 'done', lease_token = NULL, lease_until = NULL, done_at = ?1,
              last_error = NULL
            WHERE event_id = ?2 AND lease_token = ?3 AND status = 'pending'`,
          params: [now, ...holder],
        },
        ...writes,
      ]);
    } catch (error) {
      // Nothing committed. The guard's failure when the lease was taken over; any other is the handler's
      // statements' or D1's own (retried as a failed run).
      if (!(await held())) return 'lost';
      throw error;
    }
    return 'done';
  }

  async fail(lease: InboxLease, { error, retryAt, dead, now }: InboxFailure): Promise<void> {
    const p = this.#p;
    // done_at of a dead letter: when it went dead (its retention runs from there).
    await this.#driver.run(
      `UPDATE ${this.#t} SET status = ${p(1)}, available_at = ${p(2)}, lease_token = NULL, lease_until = NULL,
         last_error = ${p(3)}, done_at = ${p(6)}
       WHERE event_id = ${p(4)} AND lease_token = ${p(5)} AND status = 'pending'`,
      [dead ? 'dead' : 'pending', retryAt, error, lease.eventId, lease.token, dead ? now : null],
    );
  }

  async prune({ doneBefore, deadBefore, limit }: PruneRequest): Promise<number> {
    const p = this.#p;
    const { changes } = await this.#driver.run(
      `DELETE FROM ${this.#t} WHERE event_id IN (SELECT event_id FROM ${this.#t}
         WHERE (status = 'done' AND done_at < ${p(1)}) OR (status = 'dead' AND done_at < ${p(2)})
         LIMIT ${p(3)})`,
      [doneBefore, deadBefore, limit],
    );
    return changes;
  }

  async replay(eventId: string): Promise<boolean> {
    const p = this.#p;
    const { changes } = await this.#driver.run(
      `UPDATE ${this.#t} SET status = 'pending', attempts = 0, available_at = 0, lease_token = NULL,
         lease_until = NULL, last_error = NULL, done_at = NULL
       WHERE event_id = ${p(1)}`,
      [eventId],
    );
    return changes > 0;
  }

  async get(eventId: string, now: number): Promise<InboxEntry | null> {
    const { rows } = await this.#driver.run(`${this.#select()} WHERE event_id = ${this.#p(1)}`, [eventId]);
    return rows[0] ? entryOf(rows[0], now) : null;
  }

  async list(status: InboxStatus, limit: number, now: number): Promise<InboxEntry[]> {
    const p = this.#p;
    const leased = `(lease_until IS NOT NULL AND lease_until > ${p(1)})`;
    const where =
      status === 'processing'
        ? `status = 'pending' AND ${leased}`
        : status === 'pending'
          ? `status = 'pending' AND NOT ${leased}`
          : `status = ${p(2)} AND ${p(1)} = ${p(1)}`;
    const params = status === 'done' || status === 'dead' ? [now, status, limit] : [now, limit];
    const limitAt = params.length;
    const { rows } = await this.#driver.run(
      `${this.#select()} WHERE ${where} ORDER BY seq LIMIT ${p(limitAt)}`,
      params,
    );
    return rows.map((row) => entryOf(row, now));
  }

  close(): Promise<void> {
    return this.#driver.close();
  }

  #select(): string {
    return `SELECT event_id, event, status, attempts, source, ordering_key, received_at, last_error, lease_until
      FROM ${this.#t}`;
  }
}

const LOST = Symbol('lease lost');

function leaseOf(row: Record<string, unknown>, suspect: boolean): InboxLease {
  return {
    suspect,
    eventId: String(row.event_id),
    event: JSON.parse(String(row.event)) as ShopEvent,
    attempt: Number(row.attempts),
    token: String(row.lease_token),
    source: String(row.source) as InboxSource,
    orderingKey:
      row.ordering_key === null || row.ordering_key === undefined ? null : String(row.ordering_key),
  };
}

function entryOf(row: Record<string, unknown>, now: number): InboxEntry {
  const leased = row.lease_until !== null && row.lease_until !== undefined && Number(row.lease_until) > now;
  const status = String(row.status);
  return {
    eventId: String(row.event_id),
    event: JSON.parse(String(row.event)) as ShopEvent,
    status: status === 'pending' && leased ? 'processing' : (status as InboxStatus),
    attempts: Number(row.attempts),
    source: String(row.source) as InboxSource,
    orderingKey:
      row.ordering_key === null || row.ordering_key === undefined ? null : String(row.ordering_key),
    receivedAt: Number(row.received_at),
    lastError: row.last_error === null || row.last_error === undefined ? null : String(row.last_error),
  };
}

/** What `tx.execute` gives on D1: its statement runs after the handler, so its count is not known yet. */
const HELD_RESULT: { changes: number } = Object.defineProperty({}, 'changes', {
  get() {
    throw new ShopError(
      'On D1, tx.execute statements run after the handler returns, in one batch with the done mark: ' +
        'their changes are not known inside the handler (read with tx.query instead).',
    );
  },
}) as { changes: number };

/** Statements that only read: `tx.query` runs them at once on D1, outside the batch. */
const READ_ONLY = /^\s*(select|values)\b|^\s*with\b(?![\s\S]*\b(insert|update|delete|replace)\b)/i;

/** The handler's `tx` on D1: `query` reads committed data at once, `execute` waits for the batch. */
function heldWritesOver(
  driver: SqlDriver,
  writes: SqlStatement[],
): { tx: InboxTransaction; close: () => void } {
  let open = true;
  const check = (sql: unknown) => {
    if (!open) throw new ShopError('The inbox transaction is over: use tx only while the handler runs.');
    if (typeof sql !== 'string') throw new ShopError('tx.query and tx.execute take SQL text first.');
  };
  const tx: InboxTransaction = {
    dialect: 'sqlite',
    query: async <Row>(sql: string, params: readonly unknown[] = []) => {
      check(sql);
      if (!READ_ONLY.test(sql)) {
        throw new ShopError(
          'On D1, tx.query runs reads (SELECT) at once, outside the batch: write with tx.execute, which ' +
            'commits with the done mark.',
        );
      }
      return (await driver.run(sql, params)).rows as Row[];
    },
    execute: async (sql: string, params: readonly unknown[] = []) => {
      check(sql);
      writes.push({ sql, params: [...params] });
      return HELD_RESULT;
    },
  };
  return {
    tx,
    close: () => {
      open = false;
    },
  };
}

/** The handler's view of the session; after `close` a late statement fails instead of running outside. */
function transactionOver(
  session: SqlSession,
  dialect: SqlDialect,
): { tx: InboxTransaction; close: () => void } {
  const translate = dialect === 'postgres' ? numberPlaceholders : (sql: string) => sql;
  let open = true;
  const run = async (sql: string, params: readonly unknown[] = []) => {
    if (!open) throw new ShopError('The inbox transaction is over: use tx only while the handler runs.');
    if (typeof sql !== 'string') throw new ShopError('tx.query and tx.execute take SQL text first.');
    return session.run(translate(sql), params);
  };
  const tx: InboxTransaction = {
    dialect,
    query: async <Row>(sql: string, params?: readonly unknown[]) => (await run(sql, params)).rows as Row[],
    execute: async (sql: string, params?: readonly unknown[]) => ({
      changes: (await run(sql, params)).changes,
    }),
  };
  return {
    tx,
    close: () => {
      open = false;
    },
  };
}
