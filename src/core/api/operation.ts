import type { PathParam } from '../../internal/path.js';
import type { z } from '../../internal/schema-types.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';

/** The HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type { PathParam };

/**
 * One endpoint of the API, as generated from spec/openapi.yaml into `src/generated/operations.ts`.
 * Resources pass it to the transport, which builds the request and validates the answer from it alone,
 * so that no resource class knows how a request is sent and no transport code knows any endpoint.
 */
export interface Operation<Result extends z.ZodType = z.ZodType> {
  /** The operationId, which is also the SDK method path, e.g. `range.reservations.create`. */
  readonly id: string;
  /** The HTTP method; a POST also gets an Idempotency-Key, and a DELETE's empty 2xx resolves to a stub. */
  readonly method: HttpMethod;
  /** The full path with `/v1` and `{name}` placeholders, e.g. `/v1/range/reservations/{id}/cancel`. */
  readonly path: string;
  /** The path's `{name}` placeholders and the type each value must have; checked before sending. */
  readonly pathParams: readonly PathParam[];
  /** Query parameters: presence and primitive types only (the server owns bounds); absent or null: none. */
  readonly query?: z.ZodType | null;
  /** JSON body: presence and primitive types only (the server owns bounds); absent or null: none is sent. */
  readonly body?: z.ZodType | null;
  /** Schema of the envelope's `data`; for a cursor-paginated list, of one item. Absent: not checked. */
  readonly result?: Result;
  /**
   * A loader of the three schemas above, in their place: a generated operation's schemas (and zod with them)
   * live in a chunk of their own, loaded on the first call of a generated operation, so that an
   * application's first bundle does not carry them. {@link defineOperation} holds its schemas inline.
   */
  readonly schemas?: OperationSchemasLoader<Result>;
  /**
   * A loader of plain-function checks accepting exactly what the schemas accept (generated beside them, no
   * zod), of the operation's whole resource group by operationId: a generated operation checks its params
   * and answer with its own, and loads `schemas` only when one refuses, to describe the failure. Ignored
   * without `schemas`, or when it holds no entry for the operation's `id`.
   */
  readonly guards?: OperationGuardsLoader;
  /** `'cursor'` for a cursor-paginated list (called through `shop.list`), null for a single result. */
  readonly pagination: 'cursor' | null;
}

/**
 * What the reference says of an endpoint beyond how to call it: the generated table `operations` holds it
 * for tools, the sandbox and the docs. The transport reads none of it, so the table resource methods send
 * through (`endpoints`) leaves it out of an application's bundle.
 */
export interface OperationFacts {
  /** The status of a success: 200, or 201 for a create. */
  readonly successStatus: number;
  /** The key permission the reference names, e.g. `range:write`; null where none is needed. */
  readonly permission: string | null;
  /** POSTs only: `required` for balance moves and account payments, else `optional`. */
  readonly idempotency: 'required' | 'optional' | null;
  /** The error codes (reference section 7) the reference lists for this endpoint. */
  readonly errorCodes: readonly string[];
  /** True where the reference leaves the request or response shape open (`x-shape: undocumented`). */
  readonly undocumented: boolean;
  /** The spec's one-line summary, e.g. `Book a lane or class seats`. */
  readonly summary: string;
}

/** An {@link Operation} with what the reference says of it: an entry of the generated `operations`. */
export type DocumentedOperation<Result extends z.ZodType = z.ZodType> = Operation<Result> & OperationFacts;

/**
 * The generated `endpoints` table: each entry given its key as its `id` (the operationId), so the table does
 * not spell every id twice.
 */
export function withIds<const Table extends Record<string, Omit<Operation, 'id'>>>(
  table: Table,
): { readonly [Id in keyof Table & string]: Table[Id] & { readonly id: Id } } {
  const out: Record<string, Operation> = {};
  for (const id of Object.keys(table)) out[id] = { id, ...table[id]! } as Operation;
  return out as { readonly [Id in keyof Table & string]: Table[Id] & { readonly id: Id } };
}

/**
 * The generated `operations` table: each endpoint of `endpoints` with its facts. Marked pure (the generated
 * call site says so), so a bundle that never reads `operations` drops it and the facts with it.
 */
export function withFacts<
  const Endpoints extends Record<string, Operation>,
  const Facts extends { readonly [Id in keyof Endpoints]: OperationFacts },
>(endpoints: Endpoints, facts: Facts): { readonly [Id in keyof Endpoints]: Endpoints[Id] & Facts[Id] } {
  const table: Record<string, Operation & OperationFacts> = {};
  for (const id of Object.keys(endpoints)) table[id] = { ...endpoints[id]!, ...facts[id]! };
  return table as { readonly [Id in keyof Endpoints]: Endpoints[Id] & Facts[Id] };
}

/** The schemas of one {@link Operation}, as its loader resolves to them. */
export interface OperationSchemas<Result extends z.ZodType = z.ZodType> {
  /** Query parameters: presence and primitive types only (the server owns bounds), or null when none. */
  readonly query: z.ZodType | null;
  /** JSON body: presence and primitive types only (the server owns bounds), or null when none is sent. */
  readonly body: z.ZodType | null;
  /** Schema of the envelope's `data` (for a cursor-paginated list, of one item); null: not checked. */
  readonly result: Result | null;
  /**
   * True when `result` changes no value that passes it (no transform, default or coercion): the answer is
   * then checked without building a copy and returned as parsed from JSON. The generator sets it for every
   * generated operation; leave it out for a schema of your own, whose parsed output is returned.
   */
  readonly resultIsInput?: boolean;
}

/** A check of a value: true when the schema it stands for accepts it. */
export type Guard = (value: unknown) => boolean;

/**
 * The guards of one generated {@link Operation}: each accepts exactly what the same part of its
 * {@link OperationSchemas} accepts (params as the assert-only check, `Date`s where a date-time takes one);
 * null where that schema is null or accepts anything.
 */
export interface OperationGuards {
  readonly query: Guard | null;
  readonly body: Guard | null;
  /** Of the envelope's `data`; for a cursor-paginated list, of one item. */
  readonly result: Guard | null;
}

/**
 * Loads the guards of an operation's resource group, keyed by operationId, once; the transport caches the
 * operation's entry.
 */
export type OperationGuardsLoader = () => Promise<Readonly<Record<string, OperationGuards>>>;

/** Loads an operation's schemas once; the transport caches what it resolves to. */
export type OperationSchemasLoader<Result extends z.ZodType = z.ZodType> = () => Promise<
  OperationSchemas<Result>
>;

/** What a call of `Op` resolves to: the output of its result schema (`unknown` when it has none). */
export type OperationResult<Op extends Operation> =
  Op extends Operation<infer Result> ? z.output<Result> : unknown;

/** What {@link defineOperation} needs. */
export interface OperationDefinition<Result extends z.ZodType, Pagination extends 'cursor' | null> {
  /** Names the operation in errors and logs. @default `${method} ${path}` */
  readonly id?: string;
  readonly method: HttpMethod;
  /** The full path with `/v1`, optionally with `{name}` placeholders filled from `params.path`. */
  readonly path: string;
  /** Schema of the envelope's `data` (of one item for a cursor list). @default z.unknown(): not checked */
  readonly result?: Result;
  /** Schema the query is checked against before sending. @default null: not checked */
  readonly query?: z.ZodType | null;
  /** Schema the body is checked against before sending. @default null: not checked */
  readonly body?: z.ZodType | null;
  /** `'cursor'` for a cursor-paginated list, called with `shop.list`. @default null */
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
 * An {@link Operation} for an endpoint this SDK has no method for yet (the API adds endpoints within /v1,
 * reference section 9), to pass to `shop.request` or, for a cursor list, `shop.list`: the same transport,
 * key, retries, Idempotency-Key and errors as every generated method. `shop.get/post/patch/delete` build
 * one per call.
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
    // No result schema: nothing is checked (the validators treat a missing one as zod's `unknown()`).
    result: definition.result,
    pagination: definition.pagination ?? (null as Pagination),
  };
}
