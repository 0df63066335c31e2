import * as z from 'zod/mini';
import { pascalCase, quote } from './names.js';
import { deref, type OpenApiDocument, type SchemaObject } from './spec.js';
import { type EmitterOptions, flattenAllOf, ZodEmitter } from './zod-emitter.js';

// Plain-TypeScript guards: for each schema the zod emitter writes, a predicate `(value: unknown) => boolean`
// that accepts exactly what the zod schema's assert-only check accepts, with no import of zod. The guard
// emitter IS the zod emitter (a subclass): every decision about a spec schema (a `$ref`, an `allOf`, a
// nullable union, an open enum, a strict or loose object) is taken by ZodEmitter's own methods; only the
// printing of each decided form is overridden here. test/generated/guards.test.ts holds every emitted guard
// to its zod schema over valid and mutated samples.
//
// A form is printed as a boolean expression over the value, where VALUE stands for it (substituted with
// `o['key']`, `x`, `v`). Objects and arrays become functions of their own, hoisted to module level: no
// closure, no allocation per call, no `new Function` (guards run where code generation is refused).

/** Stands for the checked value in a printed form; never part of the generated code. */
const VALUE = '\u00abv\u00bb';

/** zod's own patterns for `z.iso.datetime()` and `z.iso.date()`, read at generate time (generate:check
 * fails when a zod upgrade changes them). */
export function isoPatterns(): { readonly datetime: RegExp; readonly date: RegExp } {
  const pattern = (schema: { def: unknown }) => {
    const found = (schema.def as { pattern?: unknown }).pattern;
    if (!(found instanceof RegExp) || found.flags !== '')
      throw new Error('zod format without a plain pattern');
    return found;
  };
  return { datetime: pattern(z.iso.datetime()), date: pattern(z.iso.date()) };
}

/** Names of guard-formats.ts, the module every guard file imports its format checks from. */
export type FormatName = 'ISO_DATETIME' | 'ISO_DATE' | 'isDateInput';

/** Replaces VALUE in a printed form with the expression of the value it checks. */
export function applyGuard(form: string, value: string): string {
  return form.split(VALUE).join(value);
}

/** The form of a guard call: `name(VALUE)`. */
export function callForm(name: string): string {
  return `${name}(${VALUE})`;
}

export const ANY_FORM = 'true';

/**
 * Prints one spec schema (through ZodEmitter's decisions) as a guard form, hoisting the functions it needs
 * into `functions` under names that start with `prefix`. `refs` collects the components it calls by name
 * (`is<Name>`), as ZodEmitter collects the schemas it references.
 */
export class GuardEmitter extends ZodEmitter {
  /** Hoisted helper functions of this emitter: name -> declaration. */
  readonly functions = new Map<string, string>();
  /** Format checks of guard-formats.ts the forms use. */
  readonly formats = new Set<FormatName>();
  /** Forms that accept `undefined` (so a required key must also be present). */
  readonly #acceptsUndefined = new Set<string>([ANY_FORM]);
  readonly #byBody = new Map<string, string>();

  constructor(
    doc: OpenApiDocument,
    options: EmitterOptions,
    private readonly prefix: string,
  ) {
    super(doc, options);
  }

  /** Whether a value absent from its object would pass `form` (then a required key is checked present). */
  acceptsUndefined(form: string): boolean {
    return this.#acceptsUndefined.has(form);
  }

  /** A function `name(v: unknown): boolean` hoisted with `body`, reused when an identical one exists. */
  hoist(body: string): string {
    const existing = this.#byBody.get(body);
    if (existing) return callForm(existing);
    const name = `${this.prefix}${this.functions.size + 1}`;
    this.#byBody.set(body, name);
    this.functions.set(name, `function ${name}(v: unknown): boolean {\n${body}}\n`);
    return callForm(name);
  }

  /** Guards of params stay inline (input mode); in output mode a component is its own guard, `is<Name>`. */
  protected override refForm(name: string): string {
    return callForm(`is${name}`);
  }

  protected override errorCodeForm(): string {
    return `typeof ${VALUE} === 'string'`;
  }

  protected override unknownForm(): string {
    return ANY_FORM;
  }

  protected override nullForm(): string {
    return `${VALUE} === null`;
  }

  protected override nullableOf(base: string): string {
    const form = `(${VALUE} === null || ${base})`;
    if (this.acceptsUndefined(base)) this.#acceptsUndefined.add(form);
    return form;
  }

  protected override unionOf(members: readonly string[]): string {
    const form = `(${members.join(' || ')})`;
    if (members.some((m) => this.acceptsUndefined(m))) this.#acceptsUndefined.add(form);
    return form;
  }

  protected override literalOf(value: unknown): string {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      throw new Error(`guards: unsupported literal ${String(value)}`);
    const text = typeof value === 'string' ? quote(value) : String(value);
    if (text.includes(VALUE)) throw new Error('guards: a literal holds the placeholder');
    return `${VALUE} === ${text}`;
  }

  protected override scalarForm(type: 'integer' | 'number' | 'boolean'): string {
    if (type === 'integer') return `Number.isSafeInteger(${VALUE})`;
    if (type === 'number') return `(typeof ${VALUE} === 'number' && Number.isFinite(${VALUE}))`;
    return `typeof ${VALUE} === 'boolean'`;
  }

  /** Any string (an open enum or a request enum accepts values newer than the SDK). */
  protected override openEnum(): string {
    return `typeof ${VALUE} === 'string'`;
  }

  protected override string(format: string | undefined): string {
    if (format === 'date-time') {
      if (this.options.mode === 'output') {
        this.formats.add('ISO_DATETIME');
        return `(typeof ${VALUE} === 'string' && ISO_DATETIME.test(${VALUE}))`;
      }
      this.formats.add('isDateInput');
      return `isDateInput(${VALUE})`;
    }
    if (format === 'date' && this.options.mode === 'output') {
      this.formats.add('ISO_DATE');
      return `(typeof ${VALUE} === 'string' && ISO_DATE.test(${VALUE}))`;
    }
    return `typeof ${VALUE} === 'string'`;
  }

  protected override arrayOf(item: string): string {
    const check =
      item === ANY_FORM
        ? ''
        : `for (let i = 0; i < v.length; i++) {\nconst x: unknown = v[i];\nif (!(${applyGuard(item, 'x')})) return false;\n}\n`;
    return this.hoist(`if (!Array.isArray(v)) return false;\n${check}return true;\n`);
  }

  protected override object(schema: SchemaObject, path: readonly string[], depth: number): string {
    const named = schema.properties !== undefined && Object.keys(schema.properties).length > 0;
    const extra = schema.additionalProperties;
    if (!named && extra && typeof extra === 'object' && Object.keys(extra).length > 0)
      throw new Error(`guards: a record of values (${path.join('.')}) is not supported`);
    const closed = named && this.options.mode === 'input' && this.options.closed === true;
    return this.objectFunction(
      named ? this.fieldChecks(schema, path, depth) : [],
      closed ? Object.keys(schema.properties!) : null,
    );
  }

  /** A component with more fields: its own guard and the new fields', unless a new field redefines one. */
  protected override extendOf(
    base: string,
    baseSchema: SchemaObject,
    extension: SchemaObject,
    path: readonly string[],
    depth: number,
  ): string {
    const flatBase = baseSchema.allOf ? flattenAllOf(this.doc, baseSchema) : deref(this.doc, baseSchema);
    const baseKeys = Object.keys(flatBase.properties ?? {});
    if (Object.keys(extension.properties ?? {}).some((key) => baseKeys.includes(key))) {
      // zod's extend replaces such a field: check the merged object, field by field.
      const merged: SchemaObject = {
        properties: { ...flatBase.properties, ...extension.properties },
        required: [...new Set([...(flatBase.required ?? []), ...(extension.required ?? [])])],
      };
      return this.objectFunction(this.fieldChecks(merged, path, depth), null);
    }
    const fields = this.fieldChecks(extension, path, depth);
    return this.objectFunction([applyGuard(base, 'v'), ...fields], null, true);
  }

  /** `o['key']` checks, one a field: a required one present (when its form passes `undefined`). */
  private fieldChecks(schema: SchemaObject, path: readonly string[], depth: number): string[] {
    const required = new Set(schema.required ?? []);
    const checks: string[] = [];
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const form = this.expr(property, [...path, name], depth + 1);
      const access = /^[A-Za-z_$][\w$]*$/.test(name) ? `o.${name}` : `o[${quote(name)}]`;
      if (!required.has(name)) {
        if (form !== ANY_FORM) checks.push(`(${access} === undefined || ${applyGuard(form, access)})`);
      } else {
        const check = applyGuard(form, access);
        checks.push(
          this.acceptsUndefined(form)
            ? `${check === 'true' ? '' : `${check} && `}${quote(name)} in o`
            : check,
        );
      }
    }
    return checks;
  }

  /** An object's function: `checks` over `o`, and, when `keys` is given, no key outside them. */
  private objectFunction(
    checks: readonly string[],
    keys: readonly string[] | null,
    baseFirst = false,
  ): string {
    let body = '';
    if (baseFirst) body += `if (!(${checks[0]})) return false;\n`;
    else body += "if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;\n";
    const fields = baseFirst ? checks.slice(1) : checks;
    if (fields.length > 0 || keys) body += 'const o = v as Record<string, unknown>;\n';
    if (keys) {
      const known = keys.length === 0 ? 'true' : keys.map((k) => `k !== ${quote(k)}`).join(' && ');
      body += `for (const k in o) if (${known}) return false;\n`;
    }
    body += `return ${fields.length > 0 ? fields.join(' &&\n') : 'true'};\n`;
    return this.hoist(body);
  }
}

/** `range.reservations.create` + `Query` -> `isRangeReservationsCreateQuery`. */
export function guardName(...parts: string[]): string {
  return `is${pascalCase(...parts)}`;
}
