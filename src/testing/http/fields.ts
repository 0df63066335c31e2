import type { FieldRule, FieldRules } from '../../generated/request-rules.js';
import { notFound, validationError } from '../errors.js';
import { isDate } from '../state/dates.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
  private checked = false;
  /** The top-level names a body holds (none for a query or a nested object), and those `fields()` read. */
  private sent: readonly string[] = [];
  private described: readonly string[] = [];

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
    const reader = new FieldReader('body', (name) => body[name], '', {});
    reader.sent = Object.keys(body);
    return reader;
  }

  /** Names the body holds that no rule `fields()` read describes, in the order sent. */
  undescribed(): string[] {
    return this.sent.filter((name) => !this.described.includes(name));
  }

  /** Records a problem with a field. */
  fail(name: string, message: string): void {
    const field = this.prefix + name;
    const messages = this.errors[field] ?? [];
    messages.push(message);
    this.errors[field] = messages;
  }

  /** Where the problems of a nested object's fields go: `name.field`. */
  within(name: string): { fail(field: string, message: string): void } {
    return { fail: (field, message) => this.fail(`${name}.${field}`, message) };
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

  /**
   * Reads every field `fields` describes into an object of the values that passed (a date-time as ms); a
   * refused field is absent and its problem waits for `done()`.
   */
  fields(fields: FieldRules): Record<string, unknown> {
    this.described = Object.keys(fields);
    const values: Record<string, unknown> = {};
    for (const name in fields) {
      const value = this.byRule(name, fields[name]!);
      if (value !== undefined) values[name] = value;
    }
    return values;
  }

  /** One field by its rule; undefined when missing or refused. */
  byRule(name: string, rule: FieldRule): unknown {
    if (rule.nullable && this.read(name) === null) return null;
    const need = { required: rule.required === true };
    switch (rule.type) {
      case undefined:
        return this.present(name, need);
      case 'integer':
        return this.integer(name, { ...need, min: rule.minimum, max: rule.maximum });
      case 'number':
        return this.number(name, { ...need, min: rule.minimum, max: rule.maximum });
      case 'boolean':
        return this.boolean(name, need);
      case 'string':
        return rule.format === 'date-time' ? this.dateTime(name, need) : this.text(name, rule);
      case 'array':
        return this.list(name, rule);
      case 'object': {
        const nested = this.object(name, need);
        return nested && rule.properties ? nested.fields(rule.properties) : nested && this.read(name);
      }
    }
  }

  /** A number, integer or not. */
  number(name: string, rule: Rule & { min?: number; max?: number } = {}): number | undefined {
    const value = this.present(name, rule);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.wrong(name, 'must be a number');
    if (rule.min !== undefined && value < rule.min) return this.wrong(name, `must be at least ${rule.min}`);
    if (rule.max !== undefined && value > rule.max) return this.wrong(name, `must be at most ${rule.max}`);
    return value;
  }

  /** A string field by its rule: known values, a `date` or `email` format, a pattern. */
  private text(name: string, rule: FieldRule): string | undefined {
    const value = this.string(name, { required: rule.required === true, oneOf: rule.enum });
    if (value === undefined) return undefined;
    if (rule.format === 'date' && !isDate(value)) return this.wrong(name, 'must be a date, YYYY-MM-DD');
    if (rule.format === 'email' && !EMAIL.test(value)) return this.wrong(name, 'must be an email address');
    // A pattern with a refusal code of its own is a business rule: the domain refuses it (422), not the reader.
    if (rule.pattern !== undefined && rule.refusal === undefined && !new RegExp(rule.pattern).test(value)) {
      return this.wrong(name, `must match ${rule.pattern}`);
    }
    return value;
  }

  /** A JSON array by its rule: items of a type, or objects read by their own rules (`name[i].field`). */
  private list(name: string, rule: FieldRule): unknown[] | undefined {
    const items = rule.items;
    const need = { required: rule.required === true, nonEmpty: (rule.minItems ?? 0) > 0 };
    if (items?.type === 'integer') return this.integerList(name, need);
    if (items?.type === 'string') return this.stringList(name, need);
    const raw = this.present(name, need);
    if (raw === undefined) return undefined;
    if (!Array.isArray(raw)) return this.wrong(name, 'must be a list');
    if (need.nonEmpty && raw.length === 0) return this.wrong(name, 'must not be empty');
    if (items?.type !== 'object') return raw;
    const values: unknown[] = [];
    raw.forEach((item: unknown, index) => {
      const at = `${name}[${index}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        this.fail(at, 'must be an object');
        return;
      }
      const record = item as Record<string, unknown>;
      const reader = new FieldReader('body', (field) => record[field], `${this.prefix}${at}.`, this.errors);
      values.push(items.properties ? reader.fields(items.properties) : record);
    });
    return values;
  }

  /** Throws 400 VALIDATION_ERROR naming every bad field, if any. */
  done(): void {
    this.checked = true;
    if (Object.keys(this.errors).length > 0) throw validationError(this.errors);
  }

  /** Whether `done()` has run (a route that reads a body must call it before it changes anything). */
  get isDone(): boolean {
    return this.checked;
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
