import { compileErrors, parse, validate } from '@readme/openapi-parser';

/** The part of a JSON Schema (OpenAPI 3.1 dialect) the generator reads, with the spec's own extensions. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  deprecated?: boolean;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  items?: SchemaObject;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  'x-known-values'?: string[];
  'x-unit'?: string;
  /**
   * The error code the service answers a value breaking `pattern` with, when it is not 400 VALIDATION_ERROR
   * (a requested gift-certificate code: 422 GIFT_CERTIFICATE_CODE_INVALID).
   */
  'x-refusal'?: string;
  'x-http-status'?: Record<string, number | null>;
  'x-shape'?: string;
}

export interface ParameterObject {
  $ref?: string;
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  schema?: SchemaObject;
}

export interface MediaObject {
  schema?: SchemaObject;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, MediaObject> };
  responses?: Record<
    string,
    { $ref?: string; description?: string; content?: Record<string, MediaObject>; 'x-shape'?: string }
  >;
  'x-permission'?: string | null;
  'x-idempotency'?: 'required' | 'optional';
  'x-pagination'?: 'cursor';
  'x-error-codes'?: string[];
  'x-shape'?: string;
  /** What the operation states by inference, not from the reference: `permission`, `status`. */
  'x-inferred'?: ('permission' | 'status')[];
}

export type PathItem = Partial<Record<string, OperationObject>> & { parameters?: ParameterObject[] };

export interface OpenApiDocument {
  openapi: string;
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: {
    schemas?: Record<string, SchemaObject>;
    parameters?: Record<string, ParameterObject>;
    requestBodies?: Record<string, unknown>;
    responses?: Record<string, unknown>;
  };
}

/**
 * Validates the spec against the OpenAPI 3.1 schema (so a malformed spec fails here, not as odd output),
 * then parses it again without dereferencing: the generator needs `$ref` names to emit named schemas.
 */
export async function loadSpec(specPath: string): Promise<OpenApiDocument> {
  const result = await validate(specPath);
  if (!result.valid)
    throw new Error(`${specPath} is not a valid OpenAPI document:\n${compileErrors(result)}`);
  const doc = (await parse(specPath)) as unknown as OpenApiDocument;
  if (!doc.openapi?.startsWith('3.1'))
    throw new Error(`${specPath}: expected OpenAPI 3.1, got ${doc.openapi}`);
  readOpenEnums(doc);
  return doc;
}

/**
 * The spec writes a value list that may grow (reference section 9) as an open enum, in the form any JSON
 * Schema tool reads as "one of these, or any other string": `anyOf: [{type: string, enum: [...]},
 * {type: string}]`. The generator knows it as the list it is (`type: string` with `enum`): every emitter then
 * sees the known values as before, and response types stay open as they always were.
 */
export function readOpenEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) readOpenEnums(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as SchemaObject & Record<string, unknown>;
  const known = openEnumValues(schema.anyOf);
  if (known) {
    delete schema.anyOf;
    schema.type = 'string';
    schema.enum = known;
  }
  for (const value of Object.values(schema)) readOpenEnums(value);
}

/** The known values of an open-enum `anyOf` (a string enum beside any string), else undefined. */
function openEnumValues(anyOf: SchemaObject[] | undefined): unknown[] | undefined {
  if (anyOf?.length !== 2) return undefined;
  const list = anyOf.find((member) => Array.isArray(member.enum));
  const other = anyOf.find((member) => member !== list);
  if (!list || !other || list.type !== 'string' || other.type !== 'string') return undefined;
  if (other.enum !== undefined || other.$ref !== undefined || other.format !== undefined) return undefined;
  return list.enum;
}

const COMPONENT_REF = /^#\/components\/(schemas|parameters|requestBodies|responses)\/([^/]+)$/;

/** The component name a local `$ref` points to, e.g. `RangeReservation`. */
export function refName(ref: string): string {
  const match = COMPONENT_REF.exec(ref);
  if (!match) throw new Error(`unsupported $ref ${ref}: only local #/components/... references are read`);
  return decodeURIComponent(match[2]!);
}

/** Follows a chain of local `$ref`s to the object it names. */
export function deref<T extends { $ref?: string }>(doc: OpenApiDocument, value: T): T {
  let current = value;
  const seen = new Set<string>();
  while (current.$ref) {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`$ref cycle at ${ref}`);
    seen.add(ref);
    const match = COMPONENT_REF.exec(ref);
    if (!match) throw new Error(`unsupported $ref ${ref}`);
    const section = doc.components?.[match[1] as 'schemas'] as Record<string, unknown> | undefined;
    const target = section?.[decodeURIComponent(match[2]!)];
    if (!target) throw new Error(`$ref ${ref} points to nothing`);
    current = target as T;
  }
  return current;
}

/** The JSON media schema of a request body or response, if any. */
export function jsonSchemaOf(content: Record<string, MediaObject> | undefined): SchemaObject | undefined {
  if (!content) return undefined;
  const key = Object.keys(content).find((type) => type === 'application/json' || type.endsWith('+json'));
  return key === undefined ? undefined : content[key]?.schema;
}
