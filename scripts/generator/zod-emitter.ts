import {
  jsDoc,
  literal,
  pascalCase,
  pluralise,
  propertyKey,
  quote,
  screamingSnake,
  singularise,
} from './names.js';
import { deref, type OpenApiDocument, refName, type SchemaObject } from './spec.js';

/**
 * `output` builds response schemas: hot path, so only forms zod's JIT object parser keeps fast (no unions
 * where a plain form works, no transforms or refinements), `$ref`s emitted as named schemas, enums hoisted
 * into exported lists. `input` builds params schemas: `$ref`s inlined, date-times accept `string | Date`,
 * an enum reuses the exported list with the same values (else is typed inline), and objects are closed
 * (`z.strictObject`) unless the reference leaves the operation's shape open.
 */
export type Mode = 'output' | 'input';

/** A known-values list hoisted out of a response schema, exported as `LIST` and `type Name`. */
export interface EnumConstant {
  readonly constName: string;
  readonly typeName: string;
  readonly values: readonly string[];
  /** Values given by sample only (`x-known-values`), not as the full set. */
  readonly sampled: boolean;
  readonly owner: string;
}

/** Identifiers of `src/internal/schema-helpers.ts` and of sibling generated modules an emitted expression uses. */
export type HelperName = 'openEnum' | 'requestEnum' | 'dateTimeInput' | 'ERROR_CODES' | 'EVENT_TYPES';

/** The component holding the error codes: emitted as error-codes.ts, referenced as an open enum over it. */
export const ERROR_CODE_COMPONENT = 'ErrorCode';

export interface EmitterOptions {
  readonly mode: Mode;
  /**
   * Input mode: objects with named fields become `z.strictObject`, so a key the spec does not name is a
   * type error and, at runtime, a local refusal instead of a parameter the server silently ignores. False
   * for an operation the reference leaves open (`x-shape: undocumented`): its objects stay loose.
   */
  readonly closed?: boolean;
  /** Input mode: the name of the exported known-values list holding exactly `values`, if there is one. */
  readonly knownList?: (values: readonly string[]) => string | undefined;
  /** Replaces the expression at a name path (e.g. `Event.type` -> the event types); undefined keeps it. */
  readonly override?: (path: readonly string[]) => string | undefined;
}

/** Turns spec schemas into zod source text for one generated file, collecting what that text depends on. */
export class ZodEmitter {
  readonly enums = new Map<string, EnumConstant>();
  readonly helpers = new Set<HelperName>();
  /** Component schemas referenced by name (output mode), for declaration order and imports. */
  readonly refs = new Set<string>();
  /** Exported known-values lists an input-mode expression reuses, for imports. */
  readonly lists = new Set<string>();

  constructor(
    protected readonly doc: OpenApiDocument,
    protected readonly options: EmitterOptions,
  ) {}

  /** The zod expression for `schema`; `path` names it (`['RangeReservation', 'status']`) for hoisted lists. */
  expr(schema: SchemaObject, path: readonly string[], depth = 0): string {
    if (depth > 32) throw new Error(`schema nested too deep (a $ref cycle?) at ${path.join('.')}`);
    const override = this.options.override?.(path);
    if (override !== undefined) return override;
    if (schema.$ref) return this.ref(schema.$ref, path, depth);
    if (schema.allOf) return this.allOf(schema, path, depth);
    const variants = schema.oneOf ?? schema.anyOf;
    if (variants) return this.union(variants, path, depth);

    const types = typeList(schema);
    const nullable = types.includes('null') || (schema.enum?.includes(null) ?? false);
    const base = this.nonNull(schema, types, path, depth);
    return nullable && base !== this.unknownForm() && base !== this.nullForm() ? this.nullableOf(base) : base;
  }

  /** The `key: expr,` lines of an object's properties, each under its JSDoc. */
  fields(schema: SchemaObject, path: readonly string[], depth = 0): string {
    const required = new Set(schema.required ?? []);
    let out = '';
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const value = this.expr(property, [...path, name], depth + 1);
      const list = /^(?:z\.(?:array|nullable)\()?openEnum(?:<typeof |\()([A-Z][A-Z0-9_]*)/.exec(value)?.[1];
      const lines = this.fieldDoc(property);
      if (list && !property['x-known-values'] && !property.items?.['x-known-values']) {
        lines.push(`Known values: {@link ${list}}; later API versions may add others.`);
      }
      out += jsDoc(lines);
      out += `${propertyKey(name)}: ${required.has(name) ? value : `z.optional(${value})`},\n`;
    }
    return out;
  }

  /** JSDoc lines for a field: the spec's description, then what its type cannot say (unit, format, samples). */
  fieldDoc(schema: SchemaObject): string[] {
    const target = schema.$ref && !schema.description ? undefined : schema;
    const lines: string[] = [];
    if (target?.description) lines.push(target.description);
    const unit = schema['x-unit'];
    if (unit) lines.push(`Unit: ${unit}.`);
    const format = schema.format ?? schema.items?.format;
    if (format === 'date-time') {
      lines.push(
        this.options.mode === 'output'
          ? 'ISO-8601 UTC timestamp with a trailing Z.'
          : 'An ISO-8601 timestamp, or a `Date` (sent as its ISO string).',
      );
    }
    if (format === 'date') lines.push('Calendar date, YYYY-MM-DD.');
    const known = schema['x-known-values'] ?? schema.items?.['x-known-values'];
    if (known)
      lines.push(`Values seen: ${known.map((v) => `\`${v}\``).join(', ')}; the full set is not documented.`);
    if (schema.deprecated) lines.push('@deprecated');
    return lines;
  }

  private ref(ref: string, path: readonly string[], depth: number): string {
    const name = refName(ref);
    if (name === ERROR_CODE_COMPONENT) return this.errorCodeForm();
    if (this.options.mode === 'input') return this.expr(deref(this.doc, { $ref: ref }), path, depth + 1);
    this.refs.add(name);
    return this.refForm(name);
  }

  // The forms below print one decision of the methods above; a subclass printing another language (the
  // plain-TypeScript guards of guard-emitter.ts) overrides them, so both read the spec the same way.

  /** The error-code component: an open enum over the generated error codes. */
  protected errorCodeForm(): string {
    this.helpers.add('openEnum');
    this.helpers.add('ERROR_CODES');
    return 'openEnum(ERROR_CODES)';
  }

  /** A named component schema (output mode). */
  protected refForm(name: string): string {
    return `${name}Schema`;
  }

  protected unknownForm(): string {
    return 'z.unknown()';
  }

  protected nullForm(): string {
    return 'z.null()';
  }

  protected nullableOf(base: string): string {
    return `z.nullable(${base})`;
  }

  protected unionOf(members: readonly string[]): string {
    return `z.union([${members.join(', ')}])`;
  }

  protected literalOf(value: unknown): string {
    return `z.literal(${literal(value)})`;
  }

  protected scalarForm(type: 'integer' | 'number' | 'boolean'): string {
    return type === 'integer' ? 'z.int()' : type === 'number' ? 'z.number()' : 'z.boolean()';
  }

  protected arrayOf(item: string): string {
    return `z.array(${item})`;
  }

  /** `base` (a component's form) with more fields: `allOf: [$ref Base, {more fields}]` in output mode. */
  protected extendOf(
    base: string,
    _baseSchema: SchemaObject,
    extension: SchemaObject,
    path: readonly string[],
    depth: number,
  ): string {
    return `z.extend(${base}, {\n${this.fields(extension, path, depth)}})`;
  }

  /**
   * `allOf: [$ref Base, {more fields}]` becomes `BaseSchema.extend({...})` in output mode, so the result
   * shares Base's lists and type instead of repeating them; anything else is flattened into one object.
   */
  private allOf(schema: SchemaObject, path: readonly string[], depth: number): string {
    const members = schema.allOf!;
    if (members.length === 1 && !schema.properties) return this.expr(members[0]!, path, depth + 1);
    const [first, ...rest] = members;
    const plain = (member: SchemaObject) => !member.$ref && !member.allOf && !member.oneOf && !member.anyOf;
    if (
      this.options.mode === 'output' &&
      first?.$ref &&
      rest.every(plain) &&
      isObjectSchema(deref(this.doc, first))
    ) {
      const extension: SchemaObject = { properties: {}, required: [] };
      for (const member of [...rest, schema]) {
        Object.assign(extension.properties!, member.properties ?? {});
        extension.required!.push(...(member.required ?? []));
      }
      const base = this.ref(first.$ref, path, depth);
      if (Object.keys(extension.properties!).length === 0) return base;
      return this.extendOf(base, deref(this.doc, first), extension, path, depth);
    }
    return this.object(flattenAllOf(this.doc, schema), path, depth);
  }

  private union(variants: SchemaObject[], path: readonly string[], depth: number): string {
    const isNull = (v: SchemaObject) => v.type === 'null' || v.const === null;
    const rest = variants.filter((v) => !isNull(v));
    const nullable = rest.length < variants.length;
    const base =
      rest.length === 1
        ? this.expr(rest[0]!, path, depth + 1)
        : this.unionOf(rest.map((v) => this.expr(v, path, depth + 1)));
    return nullable ? this.nullableOf(base) : base;
  }

  private nonNull(schema: SchemaObject, types: string[], path: readonly string[], depth: number): string {
    if (schema.const !== undefined) return this.literalOf(schema.const);
    const values = schema.enum?.filter((v) => v !== null);
    if (values?.length && values.every((v) => typeof v === 'string')) {
      return this.openEnum(values as string[], false, path);
    }
    const known = schema['x-known-values'];
    if (known?.length) return this.openEnum(known, true, path);

    const concrete = types.filter((t) => t !== 'null');
    if (concrete.length > 1) {
      return this.unionOf(concrete.map((t) => this.ofType(t, schema, path, depth)));
    }
    if (concrete.length === 1) return this.ofType(concrete[0]!, schema, path, depth);
    if (schema.properties) return this.object(schema, path, depth);
    if (schema.items) return this.array(schema, path, depth);
    return types.includes('null') ? this.nullForm() : this.unknownForm();
  }

  private ofType(type: string, schema: SchemaObject, path: readonly string[], depth: number): string {
    switch (type) {
      case 'string':
        return this.string(schema.format);
      case 'integer':
      case 'number':
      case 'boolean':
        return this.scalarForm(type);
      case 'array':
        return this.array(schema, path, depth);
      case 'object':
        return this.object(schema, path, depth);
      default:
        throw new Error(`unsupported type ${type} at ${path.join('.')}`);
    }
  }

  protected string(format: string | undefined): string {
    if (format === 'date-time') {
      if (this.options.mode === 'output') return 'z.iso.datetime()';
      this.helpers.add('dateTimeInput');
      return 'dateTimeInput()';
    }
    // An input date stays a string: turning a Date into a calendar day needs a time zone the SDK cannot guess.
    if (format === 'date' && this.options.mode === 'output') return 'z.iso.date()';
    return 'z.string()';
  }

  private array(schema: SchemaObject, path: readonly string[], depth: number): string {
    const last = path[path.length - 1];
    const itemPath = last === undefined ? path : [...path.slice(0, -1), singularise(last)];
    return this.arrayOf(this.expr(schema.items ?? {}, itemPath, depth + 1));
  }

  protected object(schema: SchemaObject, path: readonly string[], depth: number): string {
    if (schema.properties && Object.keys(schema.properties).length > 0) {
      const closed = this.options.mode === 'input' && this.options.closed === true;
      return `${closed ? 'z.strictObject' : 'z.looseObject'}({\n${this.fields(schema, path, depth)}})`;
    }
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object' && Object.keys(extra).length > 0) {
      return `z.record(z.string(), ${this.expr(extra, [...path, 'value'], depth + 1)})`;
    }
    return 'z.looseObject({})';
  }

  protected openEnum(values: string[], sampled: boolean, path: readonly string[]): string {
    if (this.options.mode === 'input') {
      // Documented values: the request type is closed (requestEnum); sampled ones stay open.
      const helper = sampled ? 'openEnum' : 'requestEnum';
      this.helpers.add(helper);
      const list = this.options.knownList?.(values);
      if (list === undefined) return `${helper}([${values.map(quote).join(', ')}])`;
      this.lists.add(list);
      // The list types the schema only (the helper ignores its values at run time): enums.ts is imported as a
      // type, so no schema chunk loads it and an application that uses no list carries none.
      return `${helper}<typeof ${list}>()`;
    }
    this.helpers.add('openEnum');
    const owner = path.join('.');
    const constName = pluralise(screamingSnake(...path));
    const existing = this.enums.get(constName);
    if (existing && existing.values.join('\n') !== values.join('\n')) {
      throw new Error(`two value lists would both be named ${constName} (${existing.owner} and ${owner})`);
    }
    if (!existing)
      this.enums.set(constName, { constName, typeName: pascalCase(...path), values, sampled, owner });
    return `openEnum<typeof ${constName}>()`;
  }
}

/** Whether a schema describes an object with named fields (directly or through allOf). */
export function isObjectSchema(schema: SchemaObject): boolean {
  return Boolean(schema.properties || schema.allOf || typeList(schema).includes('object'));
}

/** `type` as a list: `[integer, 'null']` stays, `integer` becomes `[integer]`, absent becomes `[]`. */
export function typeList(schema: SchemaObject): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** One object schema from an `allOf` of objects: properties and `required` merged in member order. */
export function flattenAllOf(doc: OpenApiDocument, schema: SchemaObject): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  const visit = (member: SchemaObject, depth: number) => {
    if (depth > 16) throw new Error('allOf nested too deep');
    const resolved = deref(doc, member);
    for (const part of resolved.allOf ?? []) visit(part, depth + 1);
    Object.assign(properties, resolved.properties ?? {});
    for (const name of resolved.required ?? []) if (!required.includes(name)) required.push(name);
  };
  for (const member of schema.allOf ?? []) visit(member, 0);
  Object.assign(properties, schema.properties ?? {});
  for (const name of schema.required ?? []) if (!required.includes(name)) required.push(name);
  return { type: 'object', description: schema.description, properties, required };
}

/** The JSDoc block and exports of a hoisted known-values list and its open type. */
export function emitEnumConstant(constant: EnumConstant): string {
  const list = constant.values.map((value) => `\`${value}\``).join(', ');
  const where = `\`${constant.owner}\``;
  const listDoc = constant.sampled
    ? [`Values of ${where} seen in the reference (sampled: ${list}); the full set is not documented.`]
    : [
        `Known values of ${where}. Later API versions may add values, so a field typed with it takes any string.`,
      ];
  const union = [...constant.values.map(quote), '(string & {})'].join(' | ');
  return (
    jsDoc(listDoc) +
    `export const ${constant.constName} = [${constant.values.map(quote).join(', ')}] as const;\n` +
    jsDoc([`${where}: one of ${list}, or a value added after this SDK was generated.`]) +
    `export type ${constant.typeName} = ${union};\n`
  );
}
