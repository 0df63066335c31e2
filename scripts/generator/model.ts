import type { HttpMethod, PathParam } from '../../src/core/api/operation.js';
import { pascalCase } from './names.js';
import {
  deref,
  jsonSchemaOf,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  refName,
  type SchemaObject,
} from './spec.js';
import { flattenAllOf, typeList } from './zod-emitter.js';

/** A schema the spec writes inline (a result or an event payload) that the generator names in schemas.ts. */
export interface NamedInlineSchema {
  readonly name: string;
  readonly schema: SchemaObject;
  readonly description: string | undefined;
}

/** How an operation's `data` is typed: a component, a list of one, a named inline shape, or unknown. */
export type ResultShape =
  | {
      readonly kind: 'schema';
      readonly name: string;
      /**
       * The answer's shape is not shown by the reference (`x-shape: undocumented` on the success response)
       * and `name` is a record the reference does show elsewhere, with required fields: the result is that
       * record with every field optional (any object is accepted, a field present is checked).
       */
      readonly partial?: boolean;
    }
  | { readonly kind: 'array'; readonly name: string }
  | { readonly kind: 'unknown' };

export interface OperationModel {
  readonly id: string;
  /** `range.reservations.create` -> `RangeReservationsCreate`, the prefix of its params and result names. */
  readonly pascal: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly pathParams: readonly PathParam[];
  readonly query: readonly ParameterObject[];
  readonly body: SchemaObject | undefined;
  readonly bodyRequired: boolean;
  readonly result: ResultShape;
  readonly pagination: 'cursor' | null;
  readonly successStatus: number;
  readonly permission: string | null;
  readonly idempotency: 'required' | 'optional' | null;
  readonly errorCodes: readonly string[];
  readonly undocumented: boolean;
  /** What the spec states by inference (`x-inferred`): the permission, the success status. */
  readonly inferred: readonly ('permission' | 'status')[];
  readonly summary: string;
  readonly description: string | undefined;
}

export interface EventModel {
  readonly type: string;
  /** Component (or named inline) schema of `data.object`. */
  readonly payload: string;
  readonly summary: string | undefined;
  readonly description: string | undefined;
}

export interface ApiModel {
  readonly operations: OperationModel[];
  readonly events: EventModel[];
  readonly inline: NamedInlineSchema[];
}

const METHODS = ['get', 'post', 'patch', 'delete'] as const;

/** Reads operations and webhooks out of the spec, naming the inline shapes they return or carry. */
export function buildModel(doc: OpenApiDocument): ApiModel {
  const inline: NamedInlineSchema[] = [];
  const operations: OperationModel[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) operations.push(operationModel(doc, path, method, item.parameters ?? [], op, inline));
    }
  }
  const ids = new Set<string>();
  for (const op of operations) {
    if (ids.has(op.id)) throw new Error(`operationId ${op.id} is used twice`);
    ids.add(op.id);
  }
  const events = Object.entries(doc.webhooks ?? {}).map(([type, item]) =>
    eventModel(doc, type, item, inline),
  );
  return { operations, events, inline };
}

function operationModel(
  doc: OpenApiDocument,
  path: string,
  method: (typeof METHODS)[number],
  shared: ParameterObject[],
  op: OperationObject,
  inline: NamedInlineSchema[],
): OperationModel {
  const where = `${method.toUpperCase()} ${path}`;
  const id = op.operationId;
  if (!id) throw new Error(`${where} has no operationId`);
  const pascal = pascalCase(id);

  // Operation-level parameters override path-level ones of the same name and location.
  const params = new Map<string, ParameterObject>();
  for (const param of [...shared, ...(op.parameters ?? [])].map((p) => deref(doc, p))) {
    params.set(`${param.in}:${param.name}`, param);
  }
  const pathParams = [...params.values()]
    .filter((p) => p.in === 'path')
    .map((p) => ({
      name: p.name,
      type: typeList(deref(doc, p.schema ?? {})).includes('integer') ? 'integer' : 'string',
    }))
    .map((p) => p as { name: string; type: 'integer' | 'string' });
  for (const name of path.match(/\{[^}]+\}/g) ?? []) {
    if (!pathParams.some((p) => `{${p.name}}` === name))
      throw new Error(`${where}: path parameter ${name} is not declared`);
  }

  const requestBody = op.requestBody ? deref(doc, op.requestBody) : undefined;
  const success = Object.keys(op.responses ?? {})
    .filter((status) => /^2\d\d$/.test(status))
    .sort();
  if (success.length === 0) throw new Error(`${where} has no 2xx response`);
  const successStatus = Number(success[0]);
  const response = deref(doc, op.responses![success[0]!]!);
  const pagination = op['x-pagination'] === 'cursor' ? 'cursor' : null;

  return {
    id,
    pascal,
    method: method.toUpperCase() as OperationModel['method'],
    path,
    pathParams,
    query: [...params.values()].filter((p) => p.in === 'query'),
    body: jsonSchemaOf(requestBody?.content),
    bodyRequired: requestBody?.required === true,
    result: partialWhereNotShown(
      doc,
      response,
      resultShape(doc, jsonSchemaOf(response.content), pagination, pascal, inline, where),
    ),
    pagination,
    successStatus,
    permission: op['x-permission'] ?? null,
    idempotency: op['x-idempotency'] ?? null,
    errorCodes: op['x-error-codes'] ?? [],
    undocumented: op['x-shape'] === 'undocumented',
    inferred: op['x-inferred'] ?? [],
    summary: op.summary ?? '',
    description: op.description,
  };
}

/**
 * A result whose answer the reference does not show (`x-shape: undocumented` on the success response),
 * typed as a record the reference shows elsewhere: partial, since the real answer may carry less. A record
 * the spec made for such an answer (itself `x-shape: undocumented`) is already written with what is shown.
 */
function partialWhereNotShown(
  doc: OpenApiDocument,
  response: { 'x-shape'?: string },
  result: ResultShape,
): ResultShape {
  if (response['x-shape'] !== 'undocumented' || result.kind !== 'schema') return result;
  const schema = doc.components?.schemas?.[result.name];
  if (!schema || schema['x-shape'] === 'undocumented') return result;
  const flat = schema.allOf ? flattenAllOf(doc, schema) : schema;
  return (flat.required?.length ?? 0) > 0 ? { ...result, partial: true } : result;
}

/** Finds `data` in the success envelope `{status, data, meta}` and decides how the result is typed. */
function resultShape(
  doc: OpenApiDocument,
  envelope: SchemaObject | undefined,
  pagination: 'cursor' | null,
  pascal: string,
  inline: NamedInlineSchema[],
  where: string,
): ResultShape {
  if (!envelope) return { kind: 'unknown' };
  const resolved = deref(doc, envelope);
  const flat = resolved.allOf ? flattenAllOf(doc, resolved) : resolved;
  const data = flat.properties?.data;
  if (!data) throw new Error(`${where}: the success envelope has no data property`);
  if (data.$ref) return { kind: 'schema', name: refName(data.$ref) };

  if (typeList(data).includes('array') || data.items) {
    if (!data.items) throw new Error(`${where}: data is an array without items`);
    const name = data.items.$ref ? refName(data.items.$ref) : `${pascal}Item`;
    if (!data.items.$ref) inline.push({ name, schema: data.items, description: data.items.description });
    return pagination === 'cursor' ? { kind: 'schema', name } : { kind: 'array', name };
  }
  if (pagination === 'cursor') throw new Error(`${where}: x-pagination cursor, but data is not an array`);
  const name = `${pascal}Result`;
  inline.push({ name, schema: data, description: data.description });
  return { kind: 'schema', name };
}

/** Reads one `webhooks` entry: `allOf: [$ref Event, {type: {const}, data: {properties: {object}}}]`. */
function eventModel(
  doc: OpenApiDocument,
  type: string,
  item: Record<string, unknown>,
  inline: NamedInlineSchema[],
): EventModel {
  const op = (item.post ?? Object.values(item)[0]) as OperationObject | undefined;
  const body = jsonSchemaOf(op?.requestBody ? deref(doc, op.requestBody).content : undefined);
  if (!body) throw new Error(`webhook ${type} has no JSON request body`);
  let payload: SchemaObject | undefined;
  const visit = (schema: SchemaObject) => {
    if (schema.$ref && refName(schema.$ref) === 'Event') return;
    const resolved = deref(doc, schema);
    const declared = resolved.properties?.type?.const;
    if (declared !== undefined && declared !== type) {
      throw new Error(`webhook ${type} declares type ${String(declared)}`);
    }
    const object = resolved.properties?.data?.properties?.object;
    if (object) payload = object;
    for (const part of resolved.allOf ?? []) visit(part);
  };
  visit(body);
  if (!payload) throw new Error(`webhook ${type}: no data.object schema found`);

  let name: string;
  if (payload.$ref) {
    name = refName(payload.$ref);
  } else {
    name = `${pascalCase(type)}Payload`;
    inline.push({ name, schema: payload, description: payload.description });
  }
  return { type, payload: name, summary: op?.summary, description: op?.description };
}
