import { GENERATED_HEADER } from './emit-schemas.js';
import type { OperationModel } from './model.js';
import { jsDoc, quote } from './names.js';
import { deref, type OpenApiDocument, type SchemaObject } from './spec.js';
import { flattenAllOf, typeList } from './zod-emitter.js';

/** What the spec may say of a field beyond its type; the SDK's schemas check type, enum and requiredness. */
interface Constraints {
  minimum?: number;
  maximum?: number;
  minItems?: number;
  pattern?: string;
}

/**
 * request-rules.ts: what each operation's query parameters and JSON body may hold, as plain data: per field
 * its type, whether it is required (in every form of a body), its format, known values and bounds. The
 * sandbox reads requests by it (src/testing/http/checked-routes.ts, list.ts), so a route restates none of the
 * spec; the SDK's own checks stay the schemas and guards.
 */
export function emitRequestRules(doc: OpenApiDocument, operations: readonly OperationModel[]): string {
  let queries = '';
  let bodies = '';
  for (const op of operations) {
    if (op.query.length > 0) queries += `${quote(op.id)}: ${queryLiteral(doc, op)},\n`;
    if (op.body) bodies += `${quote(op.id)}: ${fieldsLiteral(doc, bodyForms(doc, op.body), op.id)},\n`;
  }
  return `${GENERATED_HEADER}
${jsDoc([
  'One field of a request as the spec describes it. `required` is set when the parameter is, or every form of',
  'a body (each `oneOf` branch) requires the field; `date-time` is an ISO-8601 timestamp, `date` YYYY-MM-DD.',
  'A query list (`array`) is sent comma-separated. A rule with no `type` accepts any JSON value (the spec does',
  'not show its shape).',
])}export interface FieldRule {
  readonly type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  readonly required?: true;
  readonly nullable?: true;
  readonly format?: 'date-time' | 'date' | 'email';
  readonly enum?: readonly string[];
  readonly pattern?: string;
  /** The error code a value breaking \`pattern\` is refused with, when it is not VALIDATION_ERROR (422). */
  readonly refusal?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly items?: FieldRule;
  readonly properties?: FieldRules;
}

${jsDoc(['The fields of a query or a body, by name.'])}export type FieldRules = { readonly [field: string]: FieldRule };

${jsDoc([
  'The query parameters of every operation that takes any, keyed by operation id. The sandbox types its',
  'list filters by them; an `enum` here is what the reference lists, which the service refuses outside of',
  'only where the reference says so (a list route says which).',
])}export const REQUEST_QUERIES = {
${queries}} as const satisfies { readonly [operationId: string]: FieldRules };

${jsDoc([
  'The JSON body fields of every operation that takes a body, keyed by operation id. Fields the reference',
  'does not show are absent: a body marked "not shown" has few or none.',
])}export const REQUEST_BODIES = {
${bodies}} as const satisfies { readonly [operationId: string]: FieldRules };

${jsDoc(['An operation id that takes query parameters.'])}export type QueryOperationId = keyof typeof REQUEST_QUERIES;

${jsDoc(['An operation id that takes a JSON body.'])}export type BodyOperationId = keyof typeof REQUEST_BODIES;
`;
}

/** The query parameters of `op` as rules: a value sent as one string or a list of them is a list. */
function queryLiteral(doc: OpenApiDocument, op: OperationModel): string {
  const lines = op.query.map((param) => {
    const schema = flat(doc, param.schema ?? {});
    const forms = schema.oneOf ?? schema.anyOf;
    const list = forms?.find((form) => typeList(flat(doc, form)).includes('array'));
    const rule = ruleLiteral(doc, list ?? schema, `${op.id}?${param.name}`);
    return `${quote(param.name)}: ${param.required ? requiredRule(rule) : rule}`;
  });
  return `{${lines.join(', ')}}`;
}

/** The object forms a body may take: one, or each branch of a top-level `oneOf` / `anyOf`. */
function bodyForms(doc: OpenApiDocument, body: SchemaObject): SchemaObject[] {
  const schema = flat(doc, body);
  const branches = schema.oneOf ?? schema.anyOf;
  return branches ? branches.map((branch) => flat(doc, branch)) : [schema];
}

/** The schema behind a `$ref`, with an `allOf` of objects merged into one. */
function flat(doc: OpenApiDocument, schema: SchemaObject): SchemaObject {
  const resolved = deref(doc, schema);
  return resolved.allOf ? flattenAllOf(doc, resolved) : resolved;
}

/**
 * The fields of one or several object forms, merged: a field in several forms must be described alike
 * there (else the generator stops), and is required only when every form requires it.
 */
function fieldsLiteral(doc: OpenApiDocument, forms: readonly SchemaObject[], where: string): string {
  const rules = new Map<string, string>();
  const requiredIn = new Map<string, number>();
  for (const form of forms) {
    for (const [name, property] of Object.entries(form.properties ?? {})) {
      const rule = ruleLiteral(doc, property, `${where}.${name}`);
      const seen = rules.get(name);
      if (seen !== undefined && seen !== rule) {
        throw new Error(`${where}: field ${name} is described differently in two forms of the body`);
      }
      rules.set(name, rule);
      if (form.required?.includes(name)) requiredIn.set(name, (requiredIn.get(name) ?? 0) + 1);
    }
  }
  const lines = [...rules].map(([name, rule]) => {
    const required = requiredIn.get(name) === forms.length;
    return `${quote(name)}: ${required ? requiredRule(rule) : rule}`;
  });
  return `{${lines.join(', ')}}`;
}

/**
 * A rule literal marked required. Whether a field is required belongs to where it stands (a parameter, a
 * form of a body), not to its schema, so it is added to the schema's literal, which forms compare without it.
 */
function requiredRule(rule: string): string {
  return rule.replace(/^\{/, '{ required: true,');
}

function ruleLiteral(doc: OpenApiDocument, raw: SchemaObject, where: string): string {
  const schema = flat(doc, raw);
  const types = typeList(schema);
  const nullable = types.includes('null');
  const type = types.filter((t) => t !== 'null');
  if (type.length > 1) throw new Error(`${where}: a body field of several types (${type.join(', ')})`);
  const parts: string[] = [];
  const [only] = type;
  if (only !== undefined) parts.push(`type: ${quote(only)}`);
  if (nullable) parts.push('nullable: true');
  if (schema.format === 'date-time' || schema.format === 'date' || schema.format === 'email') {
    parts.push(`format: ${quote(schema.format)}`);
  }
  if (schema.enum) parts.push(`enum: [${schema.enum.map((value) => quote(String(value))).join(', ')}]`);
  const bounds = schema as SchemaObject & Constraints;
  if (bounds.pattern !== undefined) parts.push(`pattern: ${quote(bounds.pattern)}`);
  if (schema['x-refusal'] !== undefined) parts.push(`refusal: ${quote(schema['x-refusal'])}`);
  for (const key of ['minimum', 'maximum', 'minItems'] as const) {
    if (bounds[key] !== undefined) parts.push(`${key}: ${bounds[key]}`);
  }
  if (only === 'array' && schema.items) parts.push(`items: ${ruleLiteral(doc, schema.items, `${where}[]`)}`);
  if (only === 'object' && schema.properties)
    parts.push(`properties: ${fieldsLiteral(doc, [schema], where)}`);
  return `{${parts.join(', ')}}`;
}
