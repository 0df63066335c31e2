// The one driver contract of the SQL the SDK writes: the inbox (`inbox/sql-store.ts`) and the sync engine
// (`engine/database.ts`) both run their statements through a SqlDriver, opened by `sqlite.ts` or `postgres.ts`
// with one set of settings (`postgres.ts`'s POSTGRES_POOL_DEFAULTS for both). Drivers (better-sqlite3,
// node:sqlite, pg) are optional peers, imported only when a database of theirs is opened. `d1.ts` drives
// Cloudflare D1 (the inbox only): SQLite with no interactive transaction, its atomic unit a batch.

/** The two databases the SDK writes. */
export type SqlDialect = 'sqlite' | 'postgres';

/** One statement's outcome. */
export interface SqlResult {
  /** The rows it returned (a query, or `... RETURNING`); empty for a statement that returns none. */
  readonly rows: Record<string, unknown>[];
  /** The rows it changed; for a statement that returns rows, how many it returned (as Postgres counts). */
  readonly changes: number;
}

/** Runs statements on one connection (in a transaction when given by {@link SqlDriver.transaction}). */
export interface SqlSession {
  /**
   * `sql` in the driver's own placeholders: `?` or `?1` on SQLite, `$1` on Postgres
   * ({@link placeholder} writes them; {@link numberPlaceholders} turns `?` into `$1, $2...`).
   */
  run(sql: string, params: readonly unknown[]): Promise<SqlResult>;
}

/** One statement of a {@link SqlDriver.batch}. */
export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** A database: statements on their own (autocommit) or in a transaction, and its dialect. */
export interface SqlDriver extends SqlSession {
  readonly dialect: SqlDialect;
  /**
   * False on a database whose API has no interactive transaction (Cloudflare D1: no BEGIN/COMMIT, each
   * statement commits alone): `transaction` throws there and {@link batch} is the one atomic unit.
   * @default true
   */
  readonly interactive?: boolean;
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when not. */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Runs `statements` in order as one atomic unit: all commit, or none when one fails (the promise rejects).
   * Required when `interactive` is false.
   */
  batch?(statements: readonly SqlStatement[]): Promise<SqlResult[]>;
  /** Closes the connection (or pool) when the driver opened it. */
  close(): Promise<void>;
}

/** The `n`th placeholder (from 1) in `dialect`: `?n` on SQLite, `$n` on Postgres. */
export function placeholder(dialect: SqlDialect): (n: number) => string {
  return dialect === 'postgres' ? (n) => `$${n}` : (n) => `?${n}`;
}

/** `?` to `$1, $2...`, outside quoted strings and identifiers; a statement already using `$1` is left alone. */
export function numberPlaceholders(sql: string): string {
  if (/\$\d/.test(sql)) return sql;
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '?') {
      out += `$${++n}`;
      continue;
    }
    out += char;
  }
  return out;
}

/**
 * `sql` written with `?` placeholders, in `dialect`'s own (numbered for Postgres), remembered per text: the
 * engine's statements are a few hundred texts run many times.
 */
export function questionMarks(dialect: SqlDialect): (sql: string) => string {
  if (dialect !== 'postgres') return (sql) => sql;
  const numbered = new Map<string, string>();
  return (sql) => {
    let text = numbered.get(sql);
    if (text === undefined) {
      text = numberPlaceholders(sql);
      if (numbered.size >= 1000) numbered.clear();
      numbered.set(sql, text);
    }
    return text;
  };
}
