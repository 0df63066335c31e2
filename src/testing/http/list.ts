import { type FieldRule, REQUEST_QUERIES } from '../../generated/request-rules.js';
import { lowerBound, Table } from '../state/table.js';
import type { SandboxWorld } from '../world.js';
import { canSeeLocation } from './access.js';
import { FieldReader } from './fields.js';
import type { ApiKey } from './keys.js';
import { type OperationId, routeFor } from './operations.js';
import { encodeCursor, readPageParams } from './pagination.js';
import { ok, type RouteContext, type RouteDefinition, type RouteResult } from './route.js';

/**
 * One query parameter of a list: a filter on the rows, or (neither `field` nor `match`) an option of `render`.
 * It is read by the operation's rule in the generated table (src/generated/request-rules.ts): its type, an
 * ISO-8601 date-time read as ms since the epoch.
 */
export interface ListParam<T> {
  readonly name: string;
  /**
   * A value outside the values the spec lists is 400 VALIDATION_ERROR (the reference says so of rentals'
   * status); otherwise it matches no row, and the list is empty.
   */
  readonly refuseUnknown?: true;
  /** The rows whose `field` equals the value (on a table: answered from an index). */
  readonly field?: keyof T & string;
  /** Or the rows `match` keeps. */
  readonly match?: (row: T, value: never) => boolean;
  /** The value when the request leaves the parameter out (read per request, e.g. from the clock). */
  readonly fallback?: (sandbox: SandboxWorld) => unknown;
}

/** What `render` and `where` see of the request: the sandbox, the key, and every parameter's value. */
export interface ListContext {
  readonly sandbox: SandboxWorld;
  readonly key: ApiKey;
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * One list endpoint as data: its rows, filters, what `updated_since` reads, who may see a row, how it shows;
 * served ascending by `position` (the id unless said otherwise).
 */
export interface ListSpec<T> {
  /** The rows: a table (filters on fields are answered from its indexes) or a list ascending by `position`. */
  readonly rows: (sandbox: SandboxWorld) => Table<T & { id: number }> | readonly T[];
  readonly params?: readonly ListParam<T>[];
  /**
   * Accepts `updated_since`: the ISO field the rows' change time is in (indexed on a table), or the change
   * time in ms. Absent: the list takes no updated_since.
   */
  readonly changedAt?: (keyof T & string) | ((row: T, sandbox: SandboxWorld) => number);
  /** The location a row is at, for keys limited to some locations (reference section 1); absent: shop-wide. */
  readonly location?: (row: T) => number | null | undefined;
  /** A further test of each row, prepared once per request (retention, permissions per row). */
  readonly where?: (context: ListContext) => (row: T) => boolean;
  /** The cursor's sort key. @default the row's id */
  readonly position?: (row: T) => number;
  /** What the caller sees of a row. @default the row */
  readonly render?: (row: T, context: ListContext) => unknown;
}

/** Above this share of the candidates, `updated_since` is tested row by row rather than gathered from its index. */
const GATHER_SHARE = 0.25;

/**
 * Serves the list `operationId` from `spec`: candidates from the smallest index a filter names, the cursor by
 * binary search, the scan stopped at limit + 1 matches.
 */
export function listRoute<T>(operationId: OperationId, spec: ListSpec<T>): RouteDefinition {
  const readers = (spec.params ?? []).map((param) => paramReader(operationId, param as ListParam<unknown>));
  return { ...routeFor(operationId), list: true, handle: (context) => list(spec, readers, context) };
}

type ParamReader = (reader: FieldReader) => unknown;

/** How `param` is read: by the operation's generated rule; a name the operation does not take throws at load. */
function paramReader(operationId: OperationId, param: ListParam<unknown>): ParamReader {
  const rules = (REQUEST_QUERIES as Readonly<Record<string, Readonly<Record<string, FieldRule>>>>)[
    operationId
  ];
  const where = `sandbox list ${operationId}: query parameter ${param.name}`;
  const rule = rules?.[param.name];
  if (rule === undefined) throw new Error(`${where} is not one the operation takes (spec/openapi.yaml)`);
  if (param.refuseUnknown && rule.enum === undefined)
    throw new Error(`${where} has no values listed to refuse others`);
  const { enum: _listed, ...open } = rule;
  const read = param.refuseUnknown ? rule : open;
  const { name } = param;
  return (reader) => reader.byRule(name, read);
}

function list<T>(spec: ListSpec<T>, readers: readonly ParamReader[], context: RouteContext): RouteResult {
  const { sandbox, key } = context;
  const reader = FieldReader.query(context.query);
  const values: Record<string, unknown> = {};
  const params = spec.params ?? [];
  for (const [index, param] of params.entries()) {
    values[param.name] = readers[index]!(reader) ?? param.fallback?.(sandbox);
  }
  const since = spec.changedAt === undefined ? undefined : reader.dateTime('updated_since');
  const page = readPageParams(reader);
  reader.done();
  const listContext: ListContext = { sandbox, key, values };
  const position = spec.position ?? ((row: T) => (row as { id: number }).id);

  const tests: ((row: T) => boolean)[] = [];
  const source = spec.rows(sandbox);
  const table = source instanceof Table ? (source as unknown as Table<T & { id: number }>) : null;
  let candidates: readonly T[] = table ? table.ordered() : (source as readonly T[]);
  for (const param of params) {
    const value = values[param.name];
    if (value === undefined) continue;
    if (param.field !== undefined) {
      const field = param.field;
      if (table) {
        const matching = table.equal(field, value);
        if (matching.length < candidates.length) candidates = matching;
      }
      tests.push((row) => row[field] === value);
    } else if (param.match !== undefined) {
      const match = param.match as (row: T, value: unknown) => boolean;
      tests.push((row) => match(row, value));
    }
  }
  if (since !== undefined && spec.changedAt !== undefined) {
    const changedAt = spec.changedAt;
    if (typeof changedAt === 'string') {
      const field = changedAt;
      tests.push((row) => Date.parse(row[field] as string) >= since);
      if (table) {
        const changed = table.changedSince(field, since);
        // Few changed rows (a sync catching up): gather them in id order instead of scanning the table.
        if (changed.count < candidates.length * GATHER_SHARE) {
          candidates = changed.rows.sort((a, b) => a.id - b.id);
        }
      }
    } else {
      tests.push((row) => changedAt(row, sandbox) >= since);
    }
  }
  if (spec.location !== undefined && key.locations !== null) {
    const location = spec.location;
    tests.push((row) => canSeeLocation(key, location(row)));
  }
  if (spec.where !== undefined) tests.push(spec.where(listContext));

  const start = page.after === null ? 0 : lowerBound(candidates, page.after + 1, position);
  const slice: T[] = [];
  let hasMore = false;
  for (let index = start; index < candidates.length; index++) {
    const row = candidates[index]!;
    if (!tests.every((test) => test(row))) continue;
    if (slice.length === page.limit) {
      hasMore = true;
      break;
    }
    slice.push(row);
  }
  const last = slice.at(-1);
  const render = spec.render;
  const meta = {
    limit: page.limit,
    has_more: hasMore,
    next_cursor: hasMore && last !== undefined ? encodeCursor(position(last)) : null,
  };
  if (render)
    return ok(
      slice.map((row) => render(row, listContext)),
      meta,
    );
  // Rows shown as stored: each row's JSON text is made once and reused until the next write.
  return { ...ok(slice, meta), storedRecords: true };
}
