import { notFound, validationError } from '../errors.js';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/** Parses ISO-8601 (a date alone is midnight UTC; a time needs a zone), or null. */
export function parseIsoDate(value: string): number | null {
  if (!ISO_DATE_TIME.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

interface Rule {
  readonly required?: boolean;
}

/**
 * Reads query parameters or JSON body fields, collecting every problem so a 400 VALIDATION_ERROR names
 * all bad fields at once (details: field -> messages). Call `done()` after reading, before changing state.
 */
export class FieldReader {
  private readonly errors: Record<string, string[]>;

  private constructor(
    private readonly source: 'query' | 'body',
    private readonly read: (name: string) => unknown,
    private readonly prefix: string,
    errors: Record<string, string[]>,
  ) {
    this.errors = errors;
  }

  /** Reads the query string: every value is text, lists are comma-separated. */
  static query(params: URLSearchParams): FieldReader {
    return new FieldReader('query', (name) => params.get(name) ?? undefined, '', {});
  }

  /** Reads a JSON object body. */
  static body(body: Readonly<Record<string, unknown>>): FieldReader {
    return new FieldReader('body', (name) => body[name], '', {});
  }

  /** Records a problem with a field. */
  fail(name: string, message: string): void {
    const field = this.prefix + name;
    const messages = this.errors[field] ?? [];
    messages.push(message);
    this.errors[field] = messages;
  }

  /** Whether the field was sent at all. */
  has(name: string): boolean {
    const value = this.read(name);
    return value !== undefined && value !== null && value !== '';
  }

  string(name: string, rule: Rule & { oneOf?: readonly string[] } = {}): string | undefined {
    const value = this.present(name, rule);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.wrong(name, 'must be a string');
    if (rule.oneOf && !rule.oneOf.includes(value)) {
      return this.wrong(name, `must be one of ${rule.oneOf.join(', ')}`);
    }
    return value;
  }

  integer(name: string, rule: Rule & { min?: number; max?: number } = {}): number | undefined {
    const raw = this.present(name, rule);
    if (raw === undefined) return undefined;
    const value =
      this.source === 'query' && typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      return this.wrong(name, 'must be an integer');
    if (rule.min !== undefined && value < rule.min) return this.wrong(name, `must be at least ${rule.min}`);
    if (rule.max !== undefined && value > rule.max) return this.wrong(name, `must be at most ${rule.max}`);
    return value;
  }

  boolean(name: string, rule: Rule = {}): boolean | undefined {
    const raw = this.present(name, rule);
    if (raw === undefined) return undefined;
    if (typeof raw === 'boolean') return raw;
    if (this.source === 'query' && (raw === 'true' || raw === 'false')) return raw === 'true';
    return this.wrong(name, 'must be true or false');
  }

  /** An ISO-8601 timestamp, as milliseconds since the epoch. */
  dateTime(name: string, rule: Rule = {}): number | undefined {
    const raw = this.present(name, rule);
    if (raw === undefined) return undefined;
    const ms = typeof raw === 'string' ? parseIsoDate(raw) : null;
    return ms === null ? this.wrong(name, 'must be an ISO-8601 date-time, e.g. 2026-10-01T17:00:00Z') : ms;
  }

  /** A list: a JSON array in a body, a comma-separated value in a query. */
  integerList(name: string, rule: Rule & { nonEmpty?: boolean } = {}): number[] | undefined {
    const raw = this.present(name, rule);
    if (raw === undefined) return undefined;
    const items = this.source === 'query' && typeof raw === 'string' ? raw.split(',').map(Number) : raw;
    if (!Array.isArray(items) || !items.every((item) => Number.isSafeInteger(item))) {
      return this.wrong(name, 'must be a list of integers');
    }
    if (rule.nonEmpty && items.length === 0) return this.wrong(name, 'must not be empty');
    return items as number[];
  }

  /** A list of strings (comma-separated in a query). */
  stringList(name: string, rule: Rule = {}): string[] | undefined {
    const raw = this.present(name, rule);
    if (raw === undefined) return undefined;
    const items =
      this.source === 'query' && typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : raw;
    if (!Array.isArray(items) || !items.every((item) => typeof item === 'string' && item !== '')) {
      return this.wrong(name, 'must be a list of strings');
    }
    return items as string[];
  }

  /** A nested object, read with its own reader whose problems are named `parent.field`. */
  object(name: string, rule: Rule = {}): FieldReader | undefined {
    const raw = this.present(name, rule);
    if (raw === undefined) return undefined;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return this.wrong(name, 'must be an object');
    const record = raw as Record<string, unknown>;
    return new FieldReader('body', (field) => record[field], `${this.prefix}${name}.`, this.errors);
  }

  /** Throws 400 VALIDATION_ERROR naming every bad field, if any. */
  done(): void {
    if (Object.keys(this.errors).length > 0) throw validationError(this.errors);
  }

  private present(name: string, rule: Rule): unknown {
    const value = this.read(name);
    if (value === undefined || value === null || value === '') {
      if (rule.required) this.fail(name, 'is required');
      return undefined;
    }
    return value;
  }

  private wrong(name: string, message: string): undefined {
    this.fail(name, message);
    return undefined;
  }
}

/** A path id: a positive integer, else the record cannot exist (404). */
export function pathId(params: Readonly<Record<string, string>>, what: string, name = 'id'): number {
  const raw = params[name] ?? '';
  if (!/^\d{1,15}$/.test(raw) || Number(raw) === 0) throw notFound(what);
  return Number(raw);
}
