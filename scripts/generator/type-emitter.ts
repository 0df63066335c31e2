import { jsDoc, literal, propertyKey, quote } from './names.js';
import { deref, type OpenApiDocument, refName, type SchemaObject } from './spec.js';
import {
  ERROR_CODE_COMPONENT,
  flattenAllOf,
  isObjectSchema,
  typeList,
  type ZodEmitter,
} from './zod-emitter.js';

/**
 * Turns spec schemas into TypeScript types for schemas.ts: an `interface` per record, each field under the
 * doc comment its zod field carries, so an editor shows `RangeReservation` and the field's description
 * rather than an expanded zod output type. The types say what the zod schemas check (output mode: what a
 * response holds) and nothing more; each schema is declared `satisfies` its interface, and a type test
 * compares the two both ways, so they cannot drift.
 */
export interface TypeEmitterOptions {
  /**
   * `input` types request params as the zod input schema accepts them: `$ref`s inlined, a date-time as
   * `string | Date`, and no index signature where the object is closed. Default `output`.
   */
  readonly mode?: 'output' | 'input';
  /** Input mode: objects are closed (`z.strictObject`), so their type lists every key there is. */
  readonly closed?: boolean;
  /** Replaces the type at a name path (`Event.type` -> the event types); undefined keeps it. */
  readonly override?: (path: readonly string[]) => string | undefined;
}

export class TypeEmitter {
  /** Component names a type refers to, for ordering (interfaces may refer forward, so only for imports). */
  readonly refs = new Set<string>();
  /** Sibling generated modules the types use (`ERROR_CODES`, `EVENT_TYPES`). */
  readonly lists = new Set<'ERROR_CODES' | 'EVENT_TYPES'>();

  constructor(
    private readonly doc: OpenApiDocument,
    /** Supplies field docs identical to the zod schema's (same descriptions, units, formats). */
    private readonly docs: ZodEmitter,
    private readonly options: TypeEmitterOptions = {},
  ) {}

  /**
   * The declaration of a named component: `interface Name extends Base { ... }` for a record, else
   * `type Name = ...`.
   */
  declaration(name: string, schema: SchemaObject, comment: string): string {
    const members = schema.allOf;
    if (
      members?.[0]?.$ref &&
      members.slice(1).every(plainObject) &&
      isObjectSchema(deref(this.doc, members[0]))
    ) {
      const extension = mergedExtension([...members.slice(1), schema]);
      const base = this.ref(members[0].$ref, [name]);
      return `${comment}export interface ${name} extends ${base} {\n${this.members(extension, [name])}}\n`;
    }
    const flat = schema.allOf ? flattenAllOf(this.doc, schema) : schema;
    if (!flat.oneOf && !flat.anyOf && flat.properties && Object.keys(flat.properties).length > 0) {
      // Params are a named object type rather than an interface: only a type literal is assignable to the
      // transport's `Record<string, unknown>` query without an index signature, which closed params lack.
      if (this.options.mode === 'input')
        return `${comment}export type ${name} = {\n${this.members(flat, [name])}};\n`;
      return `${comment}export interface ${name} {\n${this.members(flat, [name])}}\n`;
    }
    return `${comment}export type ${name} = ${this.type(schema, [name])};\n`;
  }

  /** The type of `schema`; `path` names it as the zod emitter does. */
  type(schema: SchemaObject, path: readonly string[], depth = 0): string {
    if (depth > 32) throw new Error(`schema nested too deep (a $ref cycle?) at ${path.join('.')}`);
    const override = this.options.override?.(path);
    if (override !== undefined) return override;
    if (schema.$ref) return this.ref(schema.$ref, path);
    if (schema.allOf) return this.allOf(schema, path, depth);
    const variants = schema.oneOf ?? schema.anyOf;
    if (variants) {
      const isNull = (v: SchemaObject) => v.type === 'null' || v.const === null;
      const rest = variants.filter((v) => !isNull(v)).map((v) => this.type(v, path, depth + 1));
      if (rest.length < variants.length) rest.push('null');
      return rest.length > 1 ? rest.map(parenthesise).join(' | ') : rest[0]!;
    }
    const types = typeList(schema);
    const nullable = types.includes('null') || (schema.enum?.includes(null) ?? false);
    const base = this.nonNull(schema, types, path, depth);
    return nullable && base !== 'unknown' && base !== 'null' ? `${parenthesise(base)} | null` : base;
  }

  /** The member lines of an object type: each field under its doc, then the index signature. */
  private members(schema: SchemaObject, path: readonly string[], depth = 0): string {
    const required = new Set(schema.required ?? []);
    let out = '';
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      out += jsDoc(this.docs.fieldDoc(property));
      const optional = required.has(name) ? '' : '?';
      out += `${propertyKey(name)}${optional}: ${this.type(property, [...path, name], depth + 1)};\n`;
    }
    if (this.options.mode === 'input') {
      // Closed params refuse any other key; open ones (the reference leaves them open) pass it through.
      if (!this.options.closed)
        out += '/** A field the reference does not show, sent as given. */\n[key: string]: unknown;\n';
      return out;
    }
    // Objects are loose at runtime (reference section 9): a field a later API version adds is kept on the
    // object, but not typed, so a misspelt field is a compile error rather than `unknown`.
    return out;
  }

  private ref(ref: string, path: readonly string[]): string {
    const name = refName(ref);
    if (name === ERROR_CODE_COMPONENT) {
      this.lists.add('ERROR_CODES');
      return '(typeof ERROR_CODES)[number] | (string & {})';
    }
    const target: SchemaObject = deref(this.doc, { $ref: ref } as SchemaObject);
    if (this.options.mode === 'input') return this.type(target, path, path.length);
    // A component that is a value list (RangeReservationStatus) has no interface: its union is spelled out.
    if (!isObjectSchema(target) && (target.enum || target['x-known-values'])) return this.type(target, path);
    this.refs.add(name);
    return name;
  }

  private allOf(schema: SchemaObject, path: readonly string[], depth: number): string {
    const members = schema.allOf!;
    if (members.length === 1 && !schema.properties) return this.type(members[0]!, path, depth + 1);
    const [first, ...rest] = members;
    if (
      this.options.mode !== 'input' &&
      first?.$ref &&
      rest.every(plainObject) &&
      isObjectSchema(deref(this.doc, first))
    ) {
      const extension = mergedExtension([...rest, schema]);
      const base = this.ref(first.$ref, path);
      if (Object.keys(extension.properties ?? {}).length === 0) return base;
      return `${base} & {\n${this.members(extension, path, depth)}}`;
    }
    return this.object(flattenAllOf(this.doc, schema), path, depth);
  }

  private nonNull(schema: SchemaObject, types: string[], path: readonly string[], depth: number): string {
    if (schema.const !== undefined) return literal(schema.const);
    const values = schema.enum?.filter((v) => v !== null);
    if (values?.length && values.every((v) => typeof v === 'string')) {
      // A request takes the documented values only (a typo is a compile error; `newerValue()` sends a value
      // newer than the SDK); a response may carry a value a later API version adds.
      return this.options.mode === 'input' ? closedUnion(values as string[]) : openUnion(values as string[]);
    }
    const known = schema['x-known-values'];
    if (known?.length) return openUnion(known);
    const concrete = types.filter((t) => t !== 'null');
    if (concrete.length > 1) return concrete.map((t) => this.ofType(t, schema, path, depth)).join(' | ');
    if (concrete.length === 1) return this.ofType(concrete[0]!, schema, path, depth);
    if (schema.properties) return this.object(schema, path, depth);
    if (schema.items) return this.array(schema, path, depth);
    return types.includes('null') ? 'null' : 'unknown';
  }

  private ofType(type: string, schema: SchemaObject, path: readonly string[], depth: number): string {
    switch (type) {
      case 'string':
        return this.options.mode === 'input' && schema.format === 'date-time' ? 'string | Date' : 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'array':
        return this.array(schema, path, depth);
      case 'object':
        return this.object(schema, path, depth);
      default:
        throw new Error(`unsupported type ${type} at ${path.join('.')}`);
    }
  }

  private array(schema: SchemaObject, path: readonly string[], depth: number): string {
    return `Array<${this.type(schema.items ?? {}, path, depth + 1)}>`;
  }

  private object(schema: SchemaObject, path: readonly string[], depth: number): string {
    if (schema.properties && Object.keys(schema.properties).length > 0) {
      return `{\n${this.members(schema, path, depth)}}`;
    }
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object' && Object.keys(extra).length > 0) {
      return `Record<string, ${this.type(extra, [...path, 'value'], depth + 1)}>`;
    }
    return 'Record<string, unknown>';
  }
}

/** `'a' | 'b'`: the documented values only. */
function closedUnion(values: readonly string[]): string {
  return values.map(quote).join(' | ');
}

/** `'a' | 'b' | (string & {})`: the known values, and any string a later API version may add. */
function openUnion(values: readonly string[]): string {
  return [...values.map(quote), '(string & {})'].join(' | ');
}

function parenthesise(type: string): string {
  return type.includes(' | ') || type.includes(' & ') ? `(${type})` : type;
}

function plainObject(member: SchemaObject): boolean {
  return !member.$ref && !member.allOf && !member.oneOf && !member.anyOf;
}

function mergedExtension(parts: readonly SchemaObject[]): SchemaObject {
  const extension: SchemaObject = { properties: {}, required: [] };
  for (const member of parts) {
    Object.assign(extension.properties!, member.properties ?? {});
    extension.required!.push(...(member.required ?? []));
  }
  return extension;
}
