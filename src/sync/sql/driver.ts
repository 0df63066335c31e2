// The one SQL driver contract, for the inbox and the sync engine. Drivers are optional peers, imported only
// when a database of theirs is opened.

/** The two databases the SDK writes. */
export type SqlDialect = 'sqlite' | 'postgres';

/** One statement's outcome. */
export interface SqlResult {
  /** The rows it returned. */
  readonly rows: Record<string, unknown>[];
  /** Rows changed (or returned, as Postgres counts). */
  readonly changes: number;
}

/** Runs statements on one connection (in a transaction when given by {@link SqlDriver.transaction}). */
export interface SqlSession {
  /** `sql` in the driver's own placeholders (`?1` on SQLite, `$1` on Postgres). */
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
  /** False on D1: `transaction` throws and {@link batch} is the atomic unit. @default true */
  readonly interactive?: boolean;
  /** Runs `work` in one transaction, rolled back when it throws. */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /** Runs `statements` atomically; required when `interactive` is false. */
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

/** `sql` with `?` placeholders in `dialect`'s own, cached per text. */
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
