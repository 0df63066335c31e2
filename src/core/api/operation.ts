import type { PathParam } from '../../internal/path.js';
import type { z } from '../../internal/schema-types.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';

/** The HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type { PathParam };

/** One endpoint of the API: all the transport knows of it. */
export interface Operation<Result extends z.ZodType = z.ZodType> {
  /** The operationId, also the SDK method path. */
  readonly id: string;
  /** POST also gets an Idempotency-Key; a DELETE's empty 2xx resolves to a stub. */
  readonly method: HttpMethod;
  /** Full path with `/v1` and `{name}` placeholders. */
  readonly path: string;
  /** The path's placeholders and their types. */
  readonly pathParams: readonly PathParam[];
  /** Checks presence and primitive types; the server owns bounds. */
  readonly query?: z.ZodType | null;
  /** null: no body is sent. */
  readonly body?: z.ZodType | null;
  /** Schema of `data` (one item for a list); absent: not checked. */
  readonly result?: Result;
  /** Loads the schemas on the first call. */
  readonly schemas?: OperationSchemasLoader<Result>;
  /** Zod-free checks equal to the schemas; `schemas` then loads only to describe a refusal. */
  readonly guards?: OperationGuardsLoader;
  /** `'cursor'`: a list for `shop.list`; null: one record. */
  readonly pagination: 'cursor' | null;
}

/** What the reference says of an endpoint beyond how to call it. */
export interface OperationFacts {
  /** 200, or 201 for a create. */
  readonly successStatus: number;
  /** e.g. `range:write`; null where none is needed. */
  readonly permission: string | null;
  /** POSTs only: `required` for balance moves and account payments. */
  readonly idempotency: 'required' | 'optional' | null;
  /** Error codes the reference lists. */
  readonly errorCodes: readonly string[];
  /** True for `x-shape: undocumented`. */
  readonly undocumented: boolean;
  /** The spec's one-line summary. */
  readonly summary: string;
}

/** An {@link Operation} with its {@link OperationFacts}. */
export type DocumentedOperation<Result extends z.ZodType = z.ZodType> = Operation<Result> & OperationFacts;

/** The generated `endpoints` table, each entry given its key as `id`. */
export function withIds<const Table extends Record<string, Omit<Operation, 'id'>>>(
  table: Table,
): { readonly [Id in keyof Table & string]: Table[Id] & { readonly id: Id } } {
  const out: Record<string, Operation> = {};
  for (const id of Object.keys(table)) out[id] = { id, ...table[id]! } as Operation;
  return out as { readonly [Id in keyof Table & string]: Table[Id] & { readonly id: Id } };
}

/** The generated `operations` table: `endpoints` with their facts (pure, so an unused table is dropped). */
export function withFacts<
  const Endpoints extends Record<string, Operation>,
  const Facts extends { readonly [Id in keyof Endpoints]: OperationFacts },
>(endpoints: Endpoints, facts: Facts): { readonly [Id in keyof Endpoints]: Endpoints[Id] & Facts[Id] } {
  const table: Record<string, Operation & OperationFacts> = {};
  for (const id of Object.keys(endpoints)) table[id] = { ...endpoints[id]!, ...facts[id]! };
  return table as { readonly [Id in keyof Endpoints]: Endpoints[Id] & Facts[Id] };
}

/** What an {@link OperationSchemasLoader} resolves to. */
export interface OperationSchemas<Result extends z.ZodType = z.ZodType> {
  readonly query: z.ZodType | null;
  readonly body: z.ZodType | null;
  /** Of `data` (one item for a list); null: not checked. */
  readonly result: Result | null;
  /** `result` has no transform, default or coercion: checked in place, not copied. */
  readonly resultIsInput?: boolean;
}

/** True when the schema it stands for accepts `value`. */
export type Guard = (value: unknown) => boolean;

/** An operation's guards, each accepting what its schema accepts; null: anything. */
export interface OperationGuards {
  readonly query: Guard | null;
  readonly body: Guard | null;
  /** Of `data` (one item for a list). */
  readonly result: Guard | null;
}

/** Loads the guards of a resource group by operationId, once. */
export type OperationGuardsLoader = () => Promise<Readonly<Record<string, OperationGuards>>>;

/** Loads an operation's schemas, once. */
export type OperationSchemasLoader<Result extends z.ZodType = z.ZodType> = () => Promise<
  OperationSchemas<Result>
>;

/** What a call of `Op` resolves to (`unknown` without a result schema). */
export type OperationResult<Op extends Operation> =
  Op extends Operation<infer Result> ? z.output<Result> : unknown;

/** What {@link defineOperation} needs. */
export interface OperationDefinition<Result extends z.ZodType, Pagination extends 'cursor' | null> {
  /** Names the operation in errors and logs. @default `${method} ${path}` */
  readonly id?: string;
  readonly method: HttpMethod;
  /** Full path with `/v1`; `{name}` placeholders are filled from `params.path`. */
  readonly path: string;
  /** Schema of `data` (one item for a list). @default not checked */
  readonly result?: Result;
  /** @default null: not checked */
  readonly query?: z.ZodType | null;
  /** @default null: not checked */
  readonly body?: z.ZodType | null;
  /** `'cursor'` for a cursor list (`shop.list`). @default null */
  readonly pagination?: Pagination;
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PATCH', 'DELETE']);
// Path characters a URL keeps as they are (RFC 3986 pchar), plus `{}` for placeholders.
const PATH = /^\/v1(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@%{}]+)+$/;
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$)/i;

function refusePath(path: unknown, why: string): never {
  throw new ParamsValidationError({ path: [`${why}, got ${JSON.stringify(path)}`] });
}

/**
 * An {@link Operation} for an endpoint the SDK lacks, for `shop.request` or `shop.list`.
 * @example
 * const listWidgets = defineOperation({ method: 'GET', path: '/v1/widgets', result: WidgetSchema, pagination: 'cursor' });
 * for await (const widget of shop.list(listWidgets, { query: { limit: 200 } })) console.log(widget.id);
 */
export function defineOperation<
  Result extends z.ZodType = z.ZodUnknown,
  const Pagination extends 'cursor' | null = null,
>(
  definition: OperationDefinition<Result, Pagination>,
): Operation<Result> & { readonly pagination: Pagination } {
  const { method, path } = definition;
  if (!METHODS.has(method)) {
    throw new ParamsValidationError({
      method: [`must be GET, POST, PATCH or DELETE, got ${String(method)}`],
    });
  }
  if (typeof path !== 'string' || !PATH.test(path)) {
    refusePath(path, 'must be a path under /v1/ such as /v1/widgets/{id}, without a query string');
  }
  if (DOT_SEGMENT.test(path)) refusePath(path, 'must not hold . or .. segments under /v1/');
  return {
    id: definition.id ?? `${method} ${path}`,
    method,
    path,
    pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name: name ?? '', type: 'string' })),
    query: definition.query ?? null,
    body: definition.body ?? null,
    result: definition.result,
    pagination: definition.pagination ?? (null as Pagination),
  };
}
