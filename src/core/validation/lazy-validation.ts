import { loadOnce } from '../../internal/load-once.js';
import type { z } from '../../internal/schema-types.js';
import type { Guard, Operation, OperationGuards, OperationSchemas } from '../api/operation.js';
import type { RequestParams } from '../api/params.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';
import { ShopError } from '../errors/shop-error.js';
import type { CheckResult } from './validation.js';

// What a call checks its params and answer with, loaded with `import()` on the first call instead of with
// the entry, so that an application's first bundle carries none of it (the ESM build puts each in chunks of
// its own). A generated operation checks with its group's guards (src/generated/operation-guards.<group>.ts:
// plain functions, no zod), which accept exactly what its zod schemas accept; zod, the validators
// (validation.ts) and the group's schemas load only when a guard refuses, to describe the failure as they
// always have. An operation with schemas of its own (`defineOperation`, a hand-written one) is checked with
// zod from its first call. Once loaded, everything here answers synchronously from a cache: a call after the
// first awaits nothing it did not await before, except to describe a refusal. No Node-only API: the chunks
// are plain ES modules that Workers, Deno and Bun import as they import the entry.

/** The validators of validation.ts, which import zod. */
export type Validators = typeof import('./validation.js');

/** The zod side of a check: the operation's schemas and the validators. */
export interface ZodChecks {
  readonly schemas: OperationSchemas;
  readonly validators: Validators;
}

/** What a call checks with: a generated operation's guards, or (and, once one refused) its zod schemas. */
export interface Checker {
  /** A generated operation's guards; absent: the operation is checked with `zod` alone. */
  readonly guards?: OperationGuards;
  /** Loaded with the checker when there are no guards; else on the first refusal of a guard. */
  zod?: ZodChecks;
}

/** A value now, or a promise of it when a chunk must load first. */
export type MaybePromise<T> = T | Promise<T>;

let validators: Validators | undefined;
const loaded = new WeakMap<object, Checker>();
const loading = new WeakMap<object, Promise<Checker>>();
const describing = new WeakMap<Checker, Promise<ZodChecks>>();

/** validation.ts, imported once; kept in `validators` too, for the synchronous lookups below. */
const loadValidators = loadOnce(() =>
  import('./validation.js').then((module) => {
    validators = module;
    return module;
  }),
);

/** The operation's checker if it is loaded (always after its first call), else undefined. */
export function loadedChecker(operation: Operation): Checker | undefined {
  const { schemas } = operation;
  if (schemas) return loaded.get(schemas);
  if (!validators) return undefined;
  let checker = loaded.get(operation);
  if (!checker) {
    checker = { zod: { schemas: inline(operation), validators } };
    loaded.set(operation, checker);
  }
  return checker;
}

/** The schemas an operation holds itself (`defineOperation`, or one written by hand). */
function inline(operation: Operation): OperationSchemas {
  return { query: operation.query ?? null, body: operation.body ?? null, result: operation.result ?? null };
}

/** The operation's checker: synchronous once loaded, else a promise of it (the first call). */
export function checker(operation: Operation): Checker | Promise<Checker> {
  const found = loadedChecker(operation);
  if (found) return found;
  // Concurrent first calls share one load.
  const key = operation.schemas ?? operation;
  let pending = loading.get(key);
  if (!pending) {
    pending = loadChecker(operation).finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/** The zod side of `operation`'s checks: its schemas (loaded, or inline) and the validators. */
async function loadZod(operation: Operation): Promise<ZodChecks> {
  const { schemas } = operation;
  const [resolved, module] = await Promise.all([
    schemas ? schemas() : inline(operation),
    validators ?? loadValidators(),
  ]);
  return { schemas: resolved, validators: module };
}

/** A chunk the bundler split off could not be loaded (a deploy removed it, the network failed). */
function loadFailure(operation: Operation, cause: unknown, what: string): ShopError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ShopError(`Could not load the schemas of ${operation.id}, ${what}: ${why}`, { cause });
}

async function loadChecker(operation: Operation): Promise<Checker> {
  const { schemas, guards } = operation;
  let found: Checker;
  try {
    const group = schemas && guards ? await guards() : undefined;
    const own = group && Object.hasOwn(group, operation.id) ? group[operation.id] : undefined;
    found = own ? { guards: own } : { zod: await loadZod(operation) };
  } catch (cause) {
    // The call is not sent, and the next call tries again.
    throw loadFailure(operation, cause, 'nothing was sent');
  }
  loaded.set(schemas ?? operation, found);
  return found;
}

/**
 * The zod side of a checker: at hand, or loaded now (a guard refused, and the refusal is described by the
 * schemas, exactly as without guards). Concurrent refusals share one load; a failed load is tried again.
 */
function zodChecks(operation: Operation, checker: Checker, what: string): MaybePromise<ZodChecks> {
  if (checker.zod) return checker.zod;
  let pending = describing.get(checker);
  if (!pending) {
    pending = loadZod(operation)
      .then((found) => {
        checker.zod = found;
        return found;
      })
      .finally(() => describing.delete(checker));
    describing.set(checker, pending);
  }
  return pending.catch((cause: unknown) => {
    throw loadFailure(operation, cause, what);
  });
}

function collect(
  validate: Validators['validate'],
  schema: z.ZodType | null,
  value: unknown,
  root: string,
  into: Record<string, string[]>,
): void {
  if (!schema) return;
  const issues = validate(schema, value ?? {});
  if (issues === null) return;
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.join('.') : root;
    const messages = into[field] ?? [];
    messages.push(issue.message);
    into[field] = messages;
  }
}

function zodParams(operation: Operation, { schemas, validators }: ZodChecks, params: RequestParams): void {
  const { query, body } = schemas;
  if (!query && !body) return;
  const details: Record<string, string[]> = {};
  collect(validators.validate, query, params.query, 'query', details);
  collect(validators.validate, body, params.body, 'body', details);
  if (Object.keys(details).length > 0) throw new ParamsValidationError(details, operation.id);
}

/**
 * Refuses a call whose query or body breaks the operation's schema, before anything is sent, with the
 * fields named as the server would name them. An operation without a schema sends what it is given. The
 * values are sent as the caller gave them (the query encoder turns a `Date` into its ISO string), so only
 * validity is checked: no parsed copy is built. With guards, synchronous unless one refuses: then the
 * schemas load to name the fields (a promise that rejects with the ParamsValidationError).
 */
export function checkParams(
  operation: Operation,
  checker: Checker,
  params: RequestParams,
): MaybePromise<void> {
  const { guards } = checker;
  if (guards) {
    const { query, body } = guards;
    if ((query === null || query(params.query ?? {})) && (body === null || body(params.body ?? {}))) return;
    const zod = zodChecks(operation, checker, 'nothing was sent');
    if (zod instanceof Promise) return zod.then((found) => zodParams(operation, found, params));
    return zodParams(operation, zod, params);
  }
  return zodParams(operation, checker.zod!, params);
}

/** Whether `data` is an array whose every item passes `item` (any item, when null). */
export function everyItem(item: Guard | null, data: unknown): boolean {
  if (!Array.isArray(data)) return false;
  if (item === null) return true;
  for (let i = 0; i < data.length; i++) if (!item(data[i])) return false;
  return true;
}

function zodResult({ schemas, validators }: ZodChecks, data: unknown, list: boolean): CheckResult<unknown> {
  const told = schemas.resultIsInput === true;
  return list
    ? validators.checkList(schemas.result, data, told)
    : validators.check(schemas.result, data, told);
}

/**
 * Checks an answer's `data` (a page's `data` against the schema of ONE item when `list`). With guards, a
 * value that passes is returned as parsed from JSON (generated results change no value: `resultIsInput`),
 * synchronously; one a guard refuses is checked by the schemas (loaded now), which name the issues.
 */
export function checkResult(
  operation: Operation,
  checker: Checker,
  data: unknown,
  list: boolean,
): MaybePromise<CheckResult<unknown>> {
  const { guards } = checker;
  if (guards) {
    const { result } = guards;
    if (list ? everyItem(result, data) : result === null || result(data)) return { ok: true, value: data };
    const zod = zodChecks(operation, checker, 'to describe an answer that broke its schema');
    if (zod instanceof Promise) return zod.then((found) => zodResult(found, data, list));
    return zodResult(zod, data, list);
  }
  return zodResult(checker.zod!, data, list);
}
