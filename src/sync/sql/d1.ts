// Cloudflare D1 as a SqlDriver: SQLite over an async binding, `batch` the only atomic unit. No node: import.
import { ShopError } from '../../core/errors/shop-error.js';
import { DatabaseUnavailableError } from '../database-unavailable.js';
import type { SqlDriver, SqlResult, SqlSession, SqlStatement } from './driver.js';

/** What a D1 statement's `all()` gives (`D1Result` of @cloudflare/workers-types). */
export interface D1ResultLike {
  readonly results?: readonly unknown[];
  readonly meta?: { readonly changes?: number };
}

/** The part of a D1 `D1PreparedStatement` used. */
export interface D1PreparedStatementLike {
  /** Binds `values`. */
  bind(...values: unknown[]): D1PreparedStatementLike;
  /** Runs the statement. */
  all(): Promise<D1ResultLike>;
}

/** The part of a D1 `D1Database` binding used (`env.DB` in a Worker). */
export interface D1DatabaseLike {
  /** Compiles one statement. */
  prepare(query: string): D1PreparedStatementLike;
  /** Runs the statements atomically. */
  batch(statements: D1PreparedStatementLike[]): Promise<readonly D1ResultLike[]>;
}

/** D1's messages for a failure Cloudflare says to retry (nothing committed). */
const TRANSIENT =
  /Network connection lost|storage caused object to be reset|reset because its code was updated|overloaded|transient issue|Internal error in D1|D1 storage operation exceeded timeout/i;

/** `error` from D1 as a {@link DatabaseUnavailableError} when D1 says to try again; anything else unchanged. */
export function d1UnavailableOr(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError) return error;
  const text = error instanceof Error ? error.message : String(error);
  if (!TRANSIENT.test(text)) return error;
  return new DatabaseUnavailableError(`D1 is unavailable (${text}); try the call again.`, { cause: error });
}

/** The {@link SqlDriver} over a D1 binding; {@link D1Driver.transaction} refuses, `batch` is atomic. */
export class D1Driver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly interactive = false;
  readonly #db: D1DatabaseLike;

  constructor(db: D1DatabaseLike) {
    if (typeof db?.prepare !== 'function' || typeof db.batch !== 'function') {
      throw new ShopError('The D1 inbox needs a D1 database binding (env.DB: prepare and batch).');
    }
    this.#db = db;
  }

  async run(sql: string, params: readonly unknown[]): Promise<SqlResult> {
    const statement = this.#statement({ sql, params });
    try {
      return resultOf(await statement.all());
    } catch (error) {
      throw d1UnavailableOr(error);
    }
  }

  transaction<T>(_work: (session: SqlSession) => Promise<T>): Promise<T> {
    return Promise.reject(
      new ShopError('Cloudflare D1 has no interactive transaction: run statements together with batch().'),
    );
  }

  async batch(statements: readonly SqlStatement[]): Promise<SqlResult[]> {
    if (statements.length === 0) return [];
    const prepared = statements.map((statement) => this.#statement(statement));
    try {
      return (await this.#db.batch(prepared)).map(resultOf);
    } catch (error) {
      throw d1UnavailableOr(error);
    }
  }

  /** The binding is the runtime's: nothing to close. */
  async close(): Promise<void> {}

  #statement({ sql, params }: SqlStatement): D1PreparedStatementLike {
    return this.#db.prepare(sql).bind(...params.map(bindable));
  }
}

function resultOf(result: D1ResultLike): SqlResult {
  const rows = (result.results ?? []) as Record<string, unknown>[];
  // As Postgres counts (driver.ts): a statement that returns rows changed as many as it returned.
  return { rows, changes: rows.length > 0 ? rows.length : Number(result.meta?.changes ?? 0) };
}

function bindable(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new ShopError(`D1 binds numbers up to 2^53 - 1 exactly; ${value} is past that: bind it as text.`);
    }
    return Number(value);
  }
  return value;
}
